import { randomUUID } from 'node:crypto';
import type { DocumentStore, TransactionScope } from '@omni/platform';
import type { AssetDoc, AssetKind } from '../domain/asset';

const COLLECTION = 'assets';

export class AssetsRepository {
  private readonly assets;

  constructor(private readonly store: DocumentStore) {
    this.assets = store.collection<AssetDoc>(COLLECTION, {
      indexes: [
        { fields: { pageId: 1, status: 1, publishedAt: -1 } },
        { fields: { status: 1, createdAt: -1 } },
      ],
    });
  }

  create(input: {
    pageId: string;
    kind: AssetKind;
    title: string;
    description: string;
    fileKey: string;
    submittedBy: string;
  }) {
    return this.assets.insertOne({
      _id: randomUUID(),
      ...input,
      status: 'pending',
      createdAt: new Date().toISOString(),
      publishedAt: null,
      metadata: {},
    });
  }

  byId(id: string) {
    return this.assets.findById(id);
  }

  /** Published assets of a page, newest published first. */
  published(pageId: string, limit: number) {
    return this.assets.find({ pageId, status: 'published' }, { sort: { publishedAt: -1, _id: 1 }, limit });
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
