import { type DeliveryJobJson, STORE_STATUS_LABELS, type StoreStatus } from '@omni/proto/api';
import { Badge, Button, formatTable, toast } from '@omni/ui';
import { FileCode2 } from 'lucide-react';
import { useState } from 'react';
import { GROUP_PREVIEW, lastChange, type StoreGroup } from '../../lib/delivery-groups';
import { downloadErn } from '../../lib/releases-api';

function badgeVariant(status: string) {
  if (status === 'failed' || status === 'rejected') return 'destructive' as const;
  if (status === 'live' || status === 'acknowledged') return 'default' as const;
  return 'secondary' as const;
}

const stepLabel = (status: string) => STORE_STATUS_LABELS[status as StoreStatus] ?? status;

function StoreRow({ releaseId, job }: { releaseId: string; job: DeliveryJobJson }) {
  const at = lastChange(job);
  async function download() {
    try {
      await downloadErn(releaseId, job.target);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The DDEX message could not be downloaded.');
    }
  }
  return (
    <li
      className="flex items-start justify-between gap-2 border-b px-3 py-2 last:border-b-0"
      data-testid="delivery-job"
      data-store={job.target}
      data-status={job.status}
    >
      <details className="min-w-0 flex-1">
        <summary className="cursor-pointer list-none text-sm [&::-webkit-details-marker]:hidden">
          <span className="font-medium">{job.storeName || job.target}</span>
          {job.jobKind !== 'ingest' ? (
            <Badge variant="outline" className="ml-2">
              {job.jobKind === 'takedown' ? 'Takedown' : 'Purge'}
            </Badge>
          ) : null}
          {at ? <span className="ml-2 text-xs text-muted-foreground">{formatTable(at)}</span> : null}
          {job.reason ? (
            <span className="block text-xs text-destructive" data-testid="delivery-reason">
              {job.reason}
            </span>
          ) : null}
          {job.status === 'failed' ? (
            <span className="block text-xs text-muted-foreground">
              {job.deadLettered
                ? 'Retries used up: our team has been told and will send it again.'
                : `Attempt ${job.attempts}${job.nextAttemptAt ? `, next try ${formatTable(job.nextAttemptAt)}` : ''}`}
            </span>
          ) : null}
        </summary>
        {job.steps.length > 0 ? (
          <ol className="mt-2 space-y-1 border-l pl-3 text-xs" aria-label={`Steps for ${job.storeName}`}>
            {job.steps.map((step, i) => (
              // Steps repeat (a resend passes through the same statuses): the index keeps keys unique.
              // biome-ignore lint/suspicious/noArrayIndexKey: steps are append-only and never reordered
              <li key={i}>
                <span className="font-medium">{stepLabel(step.status)}</span>{' '}
                {/* Steps follow each other within seconds: the time to the second, the day once above. */}
                <time dateTime={step.at} className="text-muted-foreground">
                  {new Date(step.at).toLocaleTimeString()}
                </time>
              </li>
            ))}
          </ol>
        ) : null}
      </details>
      {job.hasErn ? (
        <Button
          variant="ghost"
          size="sm"
          onClick={download}
          aria-label={`Download the DDEX message sent to ${job.storeName || job.target}`}
        >
          <FileCode2 aria-hidden="true" />
          DDEX
        </Button>
      ) : null}
    </li>
  );
}

/** One state's stores; long groups (142 stores) show their first few until asked for all. */
export function StoreGroupList({ releaseId, group }: { releaseId: string; group: StoreGroup }) {
  const [all, setAll] = useState(false);
  const shown = all ? group.jobs : group.jobs.slice(0, GROUP_PREVIEW);
  const id = `store-group-${group.status}`;
  return (
    <section aria-labelledby={id} data-testid="store-group" data-status={group.status}>
      <h3 id={id} className="mb-1 flex items-center gap-2 text-sm font-semibold">
        <Badge variant={badgeVariant(group.status)}>{group.label}</Badge>
        <span data-testid="store-group-count">
          {group.jobs.length} store{group.jobs.length === 1 ? '' : 's'}
        </span>
      </h3>
      <ul className="rounded-md border">
        {shown.map((job) => (
          <StoreRow key={job.target} releaseId={releaseId} job={job} />
        ))}
      </ul>
      {group.jobs.length > GROUP_PREVIEW ? (
        <Button variant="link" size="sm" className="px-0" onClick={() => setAll((v) => !v)}>
          {all ? 'Show fewer' : `Show all ${group.jobs.length}`}
        </Button>
      ) : null}
    </section>
  );
}
