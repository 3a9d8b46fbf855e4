// DDEX batch ids are `YYYYMMDDhhmmssnnn` (UTC). Stores ingest batches in batch-id order, so ids made here
// only ever grow: two batches made in the same millisecond get consecutive milliseconds.
let last = 0;

export function nextBatchId(now: number = Date.now()): string {
  last = Math.max(now, last + 1);
  return new Date(last).toISOString().replace(/\D/g, '').slice(0, 17);
}

/** The message id of the one message in a store's batch (plain characters: it names the ack file). */
export const messageIdFor = (batchId: string, store: string) => `omni-${batchId}-${store}`;
