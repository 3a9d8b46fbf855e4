// The versions review judged: the release as catalog gave it at submission and the cover's facts as storage
// measured them, kept here once per submission (`_id = <releaseId>:<submitting event id>`). Approval pins
// the version on the jobs it lets go, and packaging reads that version: what the admin approved is what
// every store gets, without asking catalog or storage again per store (a later edit makes a new version;
// a job already on its way keeps the one it was approved with). Review also fetches the masters and the cover
// into the staging folder (they are needed for packaging anyway, once per content) and keeps each one's
// SHA-256 and size here: packaging refuses bytes that are not those.
import type { Doc, DocumentStore, TransactionScope } from '@omni/platform';
import { catalog } from '@omni/proto';
import type { CoverFacts } from '../domain/checks';

export const VERSIONS = 'delivery_release_versions';

/** A file's bytes as review fetched them: what every store must get. */
export interface FileFacts {
  sha256: string;
  size: number;
}

/** The masters (by track id) and the cover as review saw them; absent for a version kept before them. */
export interface VersionFiles {
  audio: Record<string, FileFacts>;
  cover: FileFacts | null;
}

export interface VersionDoc extends Doc {
  releaseId: string;
  /** catalog.Release as JSON (catalog.Release.toJSON). */
  release: unknown;
  cover: CoverFacts | null;
  files?: VersionFiles;
  submittedAt: string;
}

export interface ReleaseVersion {
  id: string;
  release: catalog.Release;
  cover: CoverFacts | null;
  files: VersionFiles | null;
}

export const versionIdOf = (releaseId: string, eventId: string) => `${releaseId}:${eventId}`;

export class VersionsRepository {
  private readonly versions;

  constructor(store: DocumentStore) {
    this.versions = store.collection<VersionDoc>(VERSIONS, { indexes: [{ fields: { releaseId: 1 } }] });
  }

  /** Keeps the submitted version (a redelivered event writes the same document again). */
  async put(
    scope: TransactionScope,
    v: {
      id: string;
      release: catalog.Release;
      cover: CoverFacts | null;
      files: VersionFiles | null;
      at: string;
    },
  ): Promise<void> {
    await scope.collection<VersionDoc>(VERSIONS).updateOne(
      { _id: v.id },
      {
        $set: {
          releaseId: v.release.id,
          release: catalog.Release.toJSON(v.release),
          cover: v.cover,
          ...(v.files ? { files: v.files } : {}),
          submittedAt: v.at,
        },
      },
      { upsert: true },
    );
  }

  async find(id: string): Promise<ReleaseVersion | null> {
    const doc = await this.versions.findById(id);
    return doc
      ? {
          id: doc._id,
          release: catalog.Release.fromJSON(doc.release),
          cover: doc.cover,
          files: doc.files ?? null,
        }
      : null;
  }

  /** A deleted release's versions go with it. */
  async removeAll(scope: TransactionScope, releaseId: string): Promise<void> {
    await scope.collection<VersionDoc>(VERSIONS).deleteMany({ releaseId });
  }
}
