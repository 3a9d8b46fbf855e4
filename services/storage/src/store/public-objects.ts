// Storage's list of public objects: an asset cms published (asset.approved) is publicly readable. One
// document per asset, written once per publication (idempotent by asset id).
import type { DocumentStore, TransactionScope } from '@omni/platform';

const PUBLIC_OBJECTS = 'public_objects';

export interface PublicObjectDoc {
  _id: string;
  assetId: string;
  fileKey: string;
  publishedAt: string;
  eventId: string;
  traceId?: string;
  [field: string]: unknown;
}

export class PublicObjects {
  constructor(store: DocumentStore) {
    store.collection<PublicObjectDoc>(PUBLIC_OBJECTS, {
      indexes: [{ fields: { assetId: 1 }, unique: true }],
    });
  }

  async recordPublished(
    scope: TransactionScope,
    input: { assetId: string; publishedAt: string; eventId: string },
  ): Promise<void> {
    await scope.collection<PublicObjectDoc>(PUBLIC_OBJECTS).updateOne(
      { _id: input.assetId },
      {
        $set: { publishedAt: input.publishedAt, eventId: input.eventId },
        $setOnInsert: { assetId: input.assetId, fileKey: '' },
      },
      { upsert: true },
    );
  }
}
