// The release page lists stores grouped by where their delivery stands, in the order an artist reads
// them: what is done first, then what is on its way, then what needs attention.
import { type DeliveryJobJson, STORE_STATUS_LABELS, type StoreStatus } from '@omni/proto/api';

export const GROUP_ORDER: readonly StoreStatus[] = [
  'live',
  'acknowledged',
  'sent',
  'packaging',
  'queued',
  'failed',
  'rejected',
  'taken_down',
  'purged',
];

export interface StoreGroup {
  status: StoreStatus;
  label: string;
  jobs: DeliveryJobJson[];
}

/** Non-empty groups in GROUP_ORDER; stores keep the release's order inside a group. */
export function groupJobs(jobs: readonly DeliveryJobJson[]): StoreGroup[] {
  const by = new Map<string, DeliveryJobJson[]>();
  for (const job of jobs) {
    const list = by.get(job.status) ?? [];
    list.push(job);
    by.set(job.status, list);
  }
  return GROUP_ORDER.filter((status) => by.has(status)).map((status) => ({
    status,
    label: STORE_STATUS_LABELS[status],
    jobs: by.get(status)!,
  }));
}

/** When the job reached its current status (its last step), else when it last changed. */
export const lastChange = (job: DeliveryJobJson) => job.steps.at(-1)?.at ?? job.updatedAt;

/** Stores a takedown can still reach: delivered or on their way, not already gone. */
export const canTakeDown = (job: DeliveryJobJson) =>
  job.status !== 'taken_down' && job.status !== 'purged' && job.jobKind === 'ingest';

/** Groups longer than this show their first stores and a 'Show all' button. */
export const GROUP_PREVIEW = 12;
