// `delivery.updated` through the outbox, inside the transaction that made the change: the job or review
// update and its event commit together, so no change goes unannounced and no event announces a change
// that did not happen. `version` grows by one per release (a counter document in the same transaction).
import type { Doc, Outbox, TransactionScope } from '@omni/platform';
import type { events } from '@omni/proto';

const VERSIONS = 'delivery_release_versions';

interface VersionDoc extends Doc {
  version: number;
}

export type DeliveryUpdate = Omit<events.EventData<'delivery.updated'>, 'version' | 'at'> & { at?: string };

export async function publishDeliveryUpdate(
  scope: TransactionScope,
  outbox: Outbox,
  update: DeliveryUpdate,
): Promise<number> {
  const counter = await scope
    .collection<VersionDoc>(VERSIONS)
    .findOneAndUpdate(
      { _id: update.releaseId },
      { $inc: { version: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
  const version = counter?.version ?? 1;
  await outbox.add(scope, 'delivery.updated', update.releaseId, {
    ...update,
    at: update.at ?? new Date().toISOString(),
    version,
  });
  return version;
}

/**
 * Several updates of one release in one transaction, as two writes whatever their number (one version
 * bump by their count, one outbox insert): an approval announces one change per store.
 */
export async function publishDeliveryUpdates(
  scope: TransactionScope,
  outbox: Outbox,
  releaseId: string,
  updates: DeliveryUpdate[],
): Promise<number[]> {
  if (updates.length === 0) return [];
  const counter = await scope
    .collection<VersionDoc>(VERSIONS)
    .findOneAndUpdate(
      { _id: releaseId },
      { $inc: { version: updates.length } },
      { upsert: true, returnDocument: 'after' },
    );
  const last = counter?.version ?? updates.length;
  const versions = updates.map((_, i) => last - updates.length + 1 + i);
  const at = new Date().toISOString();
  await outbox.addMany(
    scope,
    'delivery.updated',
    updates.map((update, i) => ({
      key: releaseId,
      data: { ...update, at: update.at ?? at, version: versions[i]! },
    })),
  );
  return versions;
}
