import { randomUUID } from 'node:crypto';
import type { DocumentStore, TransactionScope } from '@omni/platform';
import type { Cursor } from '../domain/cursor';
import { signableFor, type UploadLinkDoc } from '../domain/upload-link';

const COLLECTION = 'upload_links';

export class UploadLinksRepository {
  private readonly links;

  constructor(store: DocumentStore) {
    this.links = store.collection<UploadLinkDoc>(COLLECTION, {
      indexes: [{ fields: { tokenHash: 1 }, unique: true }, { fields: { createdAt: -1 } }],
    });
  }

  create(input: Omit<UploadLinkDoc, '_id' | 'uses' | 'remaining' | 'status' | 'createdAt'>) {
    return this.links.insertOne({
      _id: randomUUID(),
      ...input,
      uses: 0,
      remaining: input.maxUses,
      signable: signableFor(Number(input.maxUses)),
      status: 'active',
      createdAt: new Date().toISOString(),
    });
  }

  byId(id: string) {
    return this.links.findById(id);
  }

  byTokenHash(tokenHash: string) {
    return this.links.findOne({ tokenHash });
  }

  /** Newest first, keyset paged. */
  list(limit: number, cursor?: Cursor) {
    const after = cursor
      ? { $or: [{ createdAt: { $lt: cursor.at } }, { createdAt: cursor.at, _id: { $lt: cursor.id } }] }
      : {};
    return this.links.find(after, { sort: { createdAt: -1, _id: -1 }, limit });
  }

  revoke(id: string) {
    return this.links.findOneAndUpdate(
      { _id: id, status: 'active' },
      { $set: { status: 'revoked', revokedAt: new Date().toISOString() } },
    );
  }

  /**
   * One use, atomically: only an active, unexpired link with uses left matches, so N concurrent claims on
   * a link with N left all succeed and the next one fails. Null when the link cannot be used.
   */
  claim(scope: TransactionScope, tokenHash: string, now: Date) {
    return scope.collection<UploadLinkDoc>(COLLECTION).findOneAndUpdate(
      { tokenHash, status: 'active', remaining: { $gt: 0 }, expiresAt: { $gt: now.toISOString() } },
      // One use fewer shrinks the signing cap by PENDING_PER_USE (the signings this submission settles
      // give their places back beside it: release).
      { $inc: { uses: 1, remaining: -1, signable: -signableFor(1) } },
    );
  }

  /**
   * Reserves room for one more signed upload, atomically (N concurrent signings on a link with room for N
   * all succeed, the next one fails). A link made before the cap existed gets its room first.
   */
  async reserveSigning(link: UploadLinkDoc): Promise<boolean> {
    await this.ensureSignable(link);
    const reserved = await this.links.findOneAndUpdate(
      { _id: link._id, status: 'active', signable: { $gt: 0 } },
      { $inc: { signable: -1 } },
    );
    return reserved !== null;
  }

  /** A link made before the signing cap existed gets its room (nothing was tracked as pending then). */
  async ensureSignable(link: UploadLinkDoc) {
    if (link.signable !== undefined) return;
    await this.links.updateOne(
      { _id: link._id, signable: { $exists: false } },
      { $set: { signable: signableFor(link.remaining) } },
    );
  }

  /**
   * Gives back room for signings that ended: without a submission (refused, lost, lapsed), or settled by
   * one (inside its transaction, `scope`).
   */
  async release(linkId: string, count: number, scope?: TransactionScope) {
    if (count <= 0) return;
    const links = scope ? scope.collection<UploadLinkDoc>(COLLECTION) : this.links;
    await links.updateOne({ _id: linkId }, { $inc: { signable: count } });
  }
}
