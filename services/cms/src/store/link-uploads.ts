// Every upload signed through a contributor link, until it is settled: submitted (an asset points to it),
// or removed (its submission lost the link's last use or was refused, or it was never submitted). The
// pending ones are what a link's signing cap counts, and what the cleanup deletes from storage when
// nothing refers to them.
import { randomUUID } from 'node:crypto';
import type { Doc, DocumentStore, TransactionScope } from '@omni/platform';

const COLLECTION = 'link_uploads';

export type LinkUploadState = 'pending' | 'submitted' | 'removed' | 'closed';

export interface LinkUploadDoc extends Doc {
  _id: string;
  linkId: string;
  /** Storage's owner id for the file: the account, or `link:<id>:<sha-256 of the contributor key>` without
   * a session (domain/contributor.ts). */
  ownerId: string;
  bucket: string;
  fileKey: string;
  signedAt: string;
  /** pending: signed, not settled; submitted: an asset points to it; removed: its file was deleted but a
   * still-valid signed URL could put it back, so it is deleted once more after `sweepAfter`; closed: done. */
  state: LinkUploadState;
  /** When the cleanup may delete the file if it is still unreferenced (the signed URL has lapsed by then). */
  sweepAfter: string;
}

export class LinkUploadsRepository {
  private readonly uploads;

  constructor(store: DocumentStore) {
    this.uploads = store.collection<LinkUploadDoc>(COLLECTION, {
      indexes: [
        { fields: { linkId: 1, bucket: 1, fileKey: 1 } },
        { fields: { state: 1, sweepAfter: 1 } },
        { fields: { bucket: 1, fileKey: 1 } },
      ],
    });
  }

  record(input: Omit<LinkUploadDoc, '_id' | 'state'>) {
    return this.uploads.insertOne({ _id: randomUUID(), ...input, state: 'pending' });
  }

  /** One owner's unsettled signings of one file through this link (an upsert signs a path more than once). */
  pendingFor(linkId: string, ownerId: string, bucket: string, fileKey: string) {
    return this.uploads.find({ linkId, ownerId, bucket, fileKey, state: 'pending' });
  }

  /** Settles these records (only those still pending); how many it settled, inside `scope` when given. */
  async settle(ids: string[], state: 'submitted' | 'removed', scope?: TransactionScope): Promise<number> {
    if (ids.length === 0) return 0;
    const collection = scope ? scope.collection<LinkUploadDoc>(COLLECTION) : this.uploads;
    const { modified } = await collection.updateMany(
      { _id: { $in: ids }, state: 'pending' },
      { $set: { state } },
    );
    return modified;
  }

  /** Marks one record done, only from the state it was read in (two sweepers settle it once). */
  async close(id: string, from: LinkUploadState): Promise<boolean> {
    const { modified } = await this.uploads.updateOne(
      { _id: id, state: from },
      { $set: { state: 'closed' } },
    );
    return modified > 0;
  }

  /** Records whose files may be deleted now if nothing refers to them; one link's only when given. */
  due(now: Date, limit: number, linkId?: string) {
    return this.uploads.find(
      {
        state: { $in: ['pending', 'removed'] },
        sweepAfter: { $lte: now.toISOString() },
        ...(linkId ? { linkId } : {}),
      },
      { sort: { sweepAfter: 1 }, limit },
    );
  }

  /** Whether a later signing of the same file is still open (its new bytes must not be deleted). */
  async openSince(bucket: string, fileKey: string, signedAt: string): Promise<boolean> {
    return (await this.uploads.count({ bucket, fileKey, state: 'pending', signedAt: { $gt: signedAt } })) > 0;
  }
}
