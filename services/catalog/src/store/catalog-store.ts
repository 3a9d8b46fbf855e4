// Catalog's collections and the writes that must be atomic. A release, its track and the outgoing
// `release.created` event commit in one transaction (the outbox), so the event exists exactly when the
// release does, also across a crash between commit and publish.
import { randomUUID } from 'node:crypto';
import { type DocumentStore, DuplicateKeyError, type Outbox, type TransactionScope } from '@omni/platform';
import type { ReleaseStatus } from '@omni/proto/api';
import { formatIsrc, ISRC_MAX_SEQUENCE, isrcCounter, twoDigitYear } from '../domain/codes';
import type { ArtistDoc, FileRefDoc, ReleaseDoc, TrackDoc } from '../domain/release';
import {
  changesBetween,
  type ReleaseSnapshot,
  snapshotOf,
  type VersionDoc,
  type VersionKind,
  versionId,
} from '../domain/versions';
import { type CataloguePosition, readCataloguePage } from './catalogue-pages';

export const COLLECTIONS = {
  artists: 'artists',
  releases: 'releases',
  tracks: 'tracks',
  versions: 'release_versions',
} as const;
export const UPC_INDEX = 'upc_unique';
export const ISRC_INDEX = 'isrc_unique';
const ARTIST_INDEX = 'artist_per_user_unique';

export class IsrcExhaustedError extends Error {
  override name = 'IsrcExhaustedError';
}

export class CatalogStore {
  readonly artists;
  readonly releases;
  readonly tracks;
  readonly versions;

  constructor(
    private readonly store: DocumentStore,
    private readonly outbox: Outbox,
  ) {
    this.artists = store.collection<ArtistDoc>(COLLECTIONS.artists, {
      indexes: [{ fields: { userId: 1, name: 1 }, unique: true, name: ARTIST_INDEX }],
    });
    this.releases = store.collection<ReleaseDoc>(COLLECTIONS.releases, {
      indexes: [
        { fields: { upc: 1 }, unique: true, name: UPC_INDEX },
        // The dashboard (listForOwner: newest first, ties by id) and the catalogue pages (catalogue-pages.ts,
        // oldest first): both stores walk these in the page's order and stop at its end, instead of sorting
        // all of the owner's releases.
        { fields: { userId: 1, createdAt: -1, _id: 1 } },
        { fields: { userId: 1, createdAt: 1, _id: 1 } },
      ],
    });
    this.tracks = store.collection<TrackDoc>(COLLECTIONS.tracks, {
      indexes: [
        { fields: { isrc: 1 }, unique: true, name: ISRC_INDEX },
        { fields: { releaseId: 1 } },
        { fields: { userId: 1 } },
      ],
    });
    this.versions = store.collection<VersionDoc>(COLLECTIONS.versions, {
      indexes: [{ fields: { releaseId: 1, version: -1 } }],
    });
  }

  /** The release's versions, newest first. */
  versionsOf(releaseId: string): Promise<VersionDoc[]> {
    return this.versions.find({ releaseId }, { sort: { version: -1 } });
  }

  /** Each release's latest version (releases without versions are left out). */
  async latestVersions(releaseIds: readonly string[]): Promise<VersionDoc[]> {
    // One read of the (releaseId, version) index per release, not every version of every release: a
    // release edited fifty times costs the admin queue one document.
    const latest = await Promise.all(
      [...new Set(releaseIds)].map(
        async (releaseId) =>
          (await this.versions.find({ releaseId }, { sort: { version: -1 }, limit: 1 }))[0],
      ),
    );
    return latest.filter((v): v is VersionDoc => v !== undefined);
  }

  /** The release's versions when the caller owns it or is an admin; null otherwise (or when missing). */
  async versionsVisibleTo(
    releaseId: string,
    callerId: string,
    isAdmin: boolean,
  ): Promise<VersionDoc[] | null> {
    const release = await this.releases.findById(releaseId);
    if (!release || (release.userId !== callerId && !isAdmin)) return null;
    return this.versionsOf(releaseId);
  }

  /**
   * Writes the release's next version inside `scope`: its snapshot and what changed since the one before.
   * A release from before versions were kept gets its first version from `previous` (what it was).
   */
  private async addVersion(
    scope: TransactionScope,
    kind: VersionKind,
    now: ReleaseSnapshot,
    owner: { releaseId: string; userId: string; createdAt: string },
    previous?: ReleaseSnapshot,
  ): Promise<VersionDoc> {
    const versions = scope.collection<VersionDoc>(COLLECTIONS.versions);
    let [latest] = await versions.find({ releaseId: owner.releaseId }, { sort: { version: -1 }, limit: 1 });
    if (!latest && previous) {
      latest = {
        _id: versionId(owner.releaseId, 1),
        releaseId: owner.releaseId,
        userId: owner.userId,
        version: 1,
        kind: 'created',
        createdAt: owner.createdAt,
        snapshot: previous,
        changes: [],
      };
      await versions.insertOne(latest);
    }
    const version = (latest?.version ?? 0) + 1;
    const doc: VersionDoc = {
      _id: versionId(owner.releaseId, version),
      releaseId: owner.releaseId,
      userId: owner.userId,
      version,
      kind,
      createdAt: new Date().toISOString(),
      snapshot: now,
      changes: changesBetween(latest?.snapshot ?? null, now),
    };
    await versions.insertOne(doc);
    return doc;
  }

  /** The caller's artist of that name, created on first use (two concurrent first uses create one). */
  async artistFor(userId: string, name: string): Promise<ArtistDoc> {
    const existing = await this.artists.findOne({ userId, name });
    if (existing) return existing;
    try {
      return await this.artists.insertOne({
        _id: randomUUID(),
        userId,
        name,
        createdAt: new Date().toISOString(),
      });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const winner = await this.artists.findOne({ userId, name });
      if (!winner) throw err;
      return winner;
    }
  }

  /**
   * The next ISRC of the current year from the store's atomic counter: distinct under any concurrency and
   * across restarts (the counter is durable before it is handed out).
   */
  async allocateIsrc(now = new Date()): Promise<string> {
    const year = twoDigitYear(now);
    const sequence = await this.store.nextSequence(isrcCounter(year), 1);
    if (sequence > ISRC_MAX_SEQUENCE)
      throw new IsrcExhaustedError(`All ${ISRC_MAX_SEQUENCE} ISRCs of 20${year} have been allocated.`);
    return formatIsrc(year, sequence);
  }

  /**
   * Writes the release, its tracks, its first version and (when announced) the `release.created` event
   * together; throws DuplicateKeyError on a taken UPC or ISRC.
   */
  createRelease(
    release: ReleaseDoc,
    tracks: TrackDoc[],
    announce: boolean,
    artistName: string,
  ): Promise<void> {
    return this.store.transaction(async (scope) => {
      await scope.collection<ReleaseDoc>(COLLECTIONS.releases).insertOne(release);
      await scope.collection<TrackDoc>(COLLECTIONS.tracks).insertMany(tracks);
      await this.addVersion(scope, 'created', snapshotOf(release, artistName, tracks), {
        releaseId: release._id,
        userId: release.userId,
        createdAt: release.createdAt,
      });
      if (!announce) return;
      await this.outbox.add(scope, 'release.created', release._id, {
        releaseId: release._id,
        ownerId: release.userId,
        artistId: release.artistId,
        upc: release.upc,
        trackIds: tracks.map((t) => t._id),
        isrcs: tracks.map((t) => t.isrc),
        stores: release.stores,
        createdAt: release.createdAt,
      });
    });
  }

  /**
   * Replaces a rejected release (by review, or by a store) and its track and announces
   * `release.resubmitted`, together; false when there is nothing to fix any more (a second resubmission
   * raced this one).
   */
  resubmitRelease(
    release: ReleaseDoc,
    track: TrackDoc,
    versions: { before: ReleaseSnapshot; after: ReleaseSnapshot },
  ): Promise<boolean> {
    return this.store.transaction(async (scope) => {
      const { _id, ...fields } = release;
      const changed = await scope
        .collection<ReleaseDoc>(COLLECTIONS.releases)
        .updateOne(
          { _id, $or: [{ status: 'rejected' }, { needsFix: true }] },
          { $set: fields, ...(release.warnings ? {} : { $unset: { warnings: '' } }) },
        );
      if (changed.matched === 0) return false;
      const { _id: trackId, ...trackFields } = track;
      await scope.collection<TrackDoc>(COLLECTIONS.tracks).updateOne({ _id: trackId }, { $set: trackFields });
      await this.addVersion(
        scope,
        'resubmitted',
        versions.after,
        { releaseId: _id, userId: release.userId, createdAt: release.createdAt },
        versions.before,
      );
      await this.outbox.add(scope, 'release.resubmitted', _id, {
        releaseId: _id,
        ownerId: release.userId,
        stores: release.stores,
        resubmittedAt: new Date().toISOString(),
      });
      return true;
    });
  }

  /**
   * An edit (PATCH): the release's fields, the tracks that changed, the new version and
   * `release.resubmitted` commit together, so delivery reviews exactly what was written; once approved,
   * every store that has the release receives it again.
   */
  editRelease(
    release: ReleaseDoc,
    changedTracks: TrackDoc[],
    versions: { before: ReleaseSnapshot; after: ReleaseSnapshot },
  ): Promise<VersionDoc> {
    return this.store.transaction(async (scope) => {
      const { _id, ...fields } = release;
      await scope.collection<ReleaseDoc>(COLLECTIONS.releases).updateOne({ _id }, { $set: fields });
      for (const track of changedTracks) {
        const { _id: trackId, ...trackFields } = track;
        await scope
          .collection<TrackDoc>(COLLECTIONS.tracks)
          .updateOne({ _id: trackId }, { $set: trackFields });
      }
      const version = await this.addVersion(
        scope,
        'edited',
        versions.after,
        { releaseId: _id, userId: release.userId, createdAt: release.createdAt },
        versions.before,
      );
      await this.outbox.add(scope, 'release.resubmitted', _id, {
        releaseId: _id,
        ownerId: release.userId,
        stores: release.stores,
        resubmittedAt: version.createdAt,
      });
      return version;
    });
  }

  /** Deletes the release, its tracks and its versions together. */
  deleteRelease(releaseId: string): Promise<void> {
    return this.store.transaction(async (scope) => {
      await scope.collection<TrackDoc>(COLLECTIONS.tracks).deleteMany({ releaseId });
      await scope.collection<VersionDoc>(COLLECTIONS.versions).deleteMany({ releaseId });
      await scope.collection<ReleaseDoc>(COLLECTIONS.releases).deleteOne({ _id: releaseId });
    });
  }

  /**
   * Delivery's word on the release's status (delivery.updated), kept only when newer than what was
   * applied: a redelivered or late event never takes the status back.
   */
  async applyDeliveryStatus(
    scope: TransactionScope,
    update: {
      releaseId: string;
      status: ReleaseStatus;
      version: number;
      reachedStores: boolean;
      rejectedStores: string[];
      canResubmit: boolean;
    },
  ): Promise<void> {
    const releases = scope.collection<ReleaseDoc>(COLLECTIONS.releases);
    const current = await releases.findById(update.releaseId);
    if (!current || (current.statusVersion ?? 0) >= update.version) return;
    await releases.updateOne(
      { _id: update.releaseId, statusVersion: current.statusVersion ?? { $exists: false } },
      {
        $set: {
          status: update.status,
          statusVersion: update.version,
          rejectedStores: update.rejectedStores,
          needsFix: update.canResubmit,
          // Once a store had it, it stays so (an event from before delivery announced it says false).
          ...(update.reachedStores ? { reachedStores: true } : {}),
        },
      },
    );
  }

  /** Whether a track already carries this ISRC. */
  async isrcInUse(isrc: string): Promise<boolean> {
    return (await this.tracks.findOne({ isrc })) !== null;
  }

  /**
   * Whether any of the owner's tracks (audio) or releases (artwork) refers to this file: a refused
   * submission's files are removed only when nothing of theirs does.
   */
  async fileInUse(userId: string, ref: FileRefDoc): Promise<boolean> {
    const same = (file: FileRefDoc | null | undefined) =>
      !!file && file.bucket === ref.bucket && file.fileKey === ref.fileKey;
    if ((await this.tracks.find({ userId })).some((t) => same(t.audio))) return true;
    return (await this.releases.find({ userId })).some((r) => same(r.artwork));
  }

  /** Whether a release already carries this UPC. */
  async upcInUse(upc: string): Promise<boolean> {
    return (await this.releases.findOne({ upc })) !== null;
  }

  /**
   * Whose these ISRCs (recordings) and UPCs (whole releases) are: three or four index reads whatever the
   * number of codes (royalties asks once per chunk of a sales report).
   */
  async findRecordings(isrcs: readonly string[], upcs: readonly string[]) {
    const [tracks, upcReleases] = await Promise.all([
      isrcs.length ? this.tracks.find({ isrc: { $in: [...new Set(isrcs)] } }) : Promise.resolve([]),
      upcs.length ? this.releases.find({ upc: { $in: [...new Set(upcs)] } }) : Promise.resolve([]),
    ]);
    const known = new Map(upcReleases.map((r) => [r._id, r]));
    const missing = [...new Set(tracks.map((t) => t.releaseId))].filter((id) => !known.has(id));
    if (missing.length)
      for (const r of await this.releases.find({ _id: { $in: missing } })) known.set(r._id, r);
    const artistIds = [...new Set([...known.values()].map((r) => r.artistId))];
    const artists = new Map(
      (artistIds.length ? await this.artists.find({ _id: { $in: artistIds } }) : []).map((a) => [a._id, a]),
    );
    return { tracks, releases: upcReleases, releaseById: known, artists };
  }

  async releaseWithParts(id: string) {
    const release = await this.releases.findById(id);
    if (!release) return null;
    const [artist, tracks] = await Promise.all([
      this.artists.findById(release.artistId),
      this.tracks.find({ releaseId: release._id }, { sort: { trackNumber: 1 } }),
    ]);
    return { release, artist, tracks };
  }

  /** The owner's releases, newest first, with their artists and tracks (two reads, not one per release). */
  async listForOwner(userId: string, limit: number) {
    const releases = await this.releases.find({ userId }, { sort: { createdAt: -1, _id: 1 }, limit });
    const total = await this.releases.count({ userId });
    if (releases.length === 0) return { releases: [], total };
    const ids = releases.map((r) => r._id);
    const [artists, tracks] = await Promise.all([
      this.artists.find({ _id: { $in: [...new Set(releases.map((r) => r.artistId))] } }),
      this.tracks.find({ releaseId: { $in: ids } }),
    ]);
    const artistById = new Map(artists.map((a) => [a._id, a]));
    return {
      total,
      releases: releases.map((release) => ({
        release,
        artist: artistById.get(release.artistId) ?? null,
        tracks: tracks.filter((t) => t.releaseId === release._id),
      })),
    };
  }

  /** One page of the owner's tracks with their releases, after `position` (see catalogue-pages.ts). */
  async cataloguePage(ownerId: string, position: CataloguePosition | null, limit: number) {
    const page = await readCataloguePage(this.releases, this.tracks, ownerId, position, limit);
    const artistIds = [...new Set(page.tracks.map((t) => t.release.artistId))];
    const artists = artistIds.length > 0 ? await this.artists.find({ _id: { $in: artistIds } }) : [];
    return { ...page, artists: new Map(artists.map((a) => [a._id, a])) };
  }

  /** How many tracks the owner has (the scan's progress total). */
  trackCount(ownerId: string): Promise<number> {
    return this.tracks.count({ userId: ownerId });
  }
}
