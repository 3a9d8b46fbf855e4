import { randomUUID } from 'node:crypto';
import type { DocumentStore, Filter, TransactionScope } from '@omni/platform';
import type { AssetDoc, AssetKind, AssetStatus, NewAssetFields } from '../domain/asset';
import type { Cursor } from '../domain/cursor';

const COLLECTION = 'assets';

export type NewAsset = NewAssetFields & { pageId: string };

/** Newest first by `field`, then id: the page after `cursor` (keyset paging). */
function after(field: string, cursor: Cursor | undefined): Filter {
  if (!cursor) return {};
  return { $or: [{ [field]: { $lt: cursor.at } }, { [field]: cursor.at, _id: { $lt: cursor.id } }] };
}

export class AssetsRepository {
  private readonly assets;

  constructor(private readonly store: DocumentStore) {
    this.assets = store.collection<AssetDoc>(COLLECTION, {
      indexes: [
        { fields: { pageId: 1, status: 1, publishedAt: -1 } },
        { fields: { status: 1, createdAt: -1 } },
        { fields: { status: 1, publishedAt: -1 } },
        // Before a contributor's file is deleted: does any asset point to it?
        { fields: { fileKey: 1, bucket: 1 } },
      ],
    });
  }

  /** A new asset, pending or (an admin's own upload) published now; inside `scope` when given. */
  create(input: NewAsset, status: 'pending' | 'published', scope?: TransactionScope) {
    const now = new Date().toISOString();
    const collection = scope ? scope.collection<AssetDoc>(COLLECTION) : this.assets;
    return collection.insertOne({
      _id: randomUUID(),
      ...input,
      metadata: input.metadata ?? {},
      status,
      createdAt: now,
      publishedAt: status === 'published' ? now : null,
    });
  }

  byId(id: string) {
    return this.assets.findById(id);
  }

  /** Whether any asset, in any state, points to this stored file (upserts can make two submissions share one). */
  async references(bucket: string, fileKey: string): Promise<boolean> {
    return (await this.assets.count({ fileKey, bucket })) > 0;
  }

  /** Published assets of a page (of one kind when given), newest published first. */
  published(pageId: string, kind: AssetKind | undefined, limit: number, cursor?: Cursor) {
    return this.assets.find(
      { pageId, status: 'published', ...(kind ? { kind } : {}), ...after('publishedAt', cursor) },
      { sort: { publishedAt: -1, _id: -1 }, limit },
    );
  }

  /** Moderation tabs: newest submitted first; the published tab newest published first. */
  byStatus(status: AssetStatus, limit: number, cursor?: Cursor) {
    const field = status === 'published' ? 'publishedAt' : 'createdAt';
    return this.assets.find({ status, ...after(field, cursor) }, { sort: { [field]: -1, _id: -1 }, limit });
  }

  async counts() {
    const [pending, published, rejected] = await Promise.all(
      (['pending', 'published', 'rejected'] as const).map((status) => this.assets.count({ status })),
    );
    return { pending: pending!, published: published!, rejected: rejected! };
  }

  /** Pending → published, only if still pending (two moderators clicking at once publish it once). */
  publish(scope: TransactionScope, id: string) {
    return scope
      .collection<AssetDoc>(COLLECTION)
      .findOneAndUpdate(
        { _id: id, status: 'pending' },
        { $set: { status: 'published', publishedAt: new Date().toISOString() } },
      );
  }

  reject(scope: TransactionScope, id: string, reason: string) {
    return scope
      .collection<AssetDoc>(COLLECTION)
      .findOneAndUpdate(
        { _id: id, status: 'pending' },
        { $set: { status: 'rejected', 'metadata.rejection_reason': reason } },
      );
  }

  transaction<R>(work: (scope: TransactionScope) => Promise<R>) {
    return this.store.transaction(work);
  }
}
