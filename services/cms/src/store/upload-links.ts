import { randomUUID } from 'node:crypto';
import type { DocumentStore, TransactionScope } from '@omni/platform';
import type { Cursor } from '../domain/cursor';
import type { UploadLinkDoc } from '../domain/upload-link';

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
    return scope
      .collection<UploadLinkDoc>(COLLECTION)
      .findOneAndUpdate(
        { tokenHash, status: 'active', remaining: { $gt: 0 }, expiresAt: { $gt: now.toISOString() } },
        { $inc: { uses: 1, remaining: -1 } },
      );
  }
}
