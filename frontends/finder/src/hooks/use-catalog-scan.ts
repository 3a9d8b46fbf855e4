import { FINDER_MESSAGES, type ScanJob } from '@omni/proto/api';
import { toast } from '@omni/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { fetchLatestScan, type StartedScan, startScan } from '../lib/finder-api';
import { formatCount } from '../lib/format';
import { scanFailure } from '../lib/scan-failure';

/** How often the latest job is asked for while a scan runs (its progress moves the bar). */
export const SCAN_POLL_MS = 700;

export interface CatalogScan {
  /** The latest job as the server holds it (null: never scanned, or the history could not be read). */
  latest: ScanJob | null;
  /** The newest job with a result: what 'Latest Scan Results' shows, kept on screen while a new scan runs. */
  shown: ScanJob | null;
  scanning: boolean;
  /** The running job's progress, once the server has one to report. */
  progress: ScanJob['progress'] | null;
  run: () => void;
}

const announceComplete = (flagged: number) =>
  toast.success('Scan Complete', { description: `Found ${formatCount(flagged)} potential issues` });
const announceFailed = (description: string) => toast.error(FINDER_MESSAGES.scanFailedTitle, { description });

/** The job a POST answered with, for the cache, when the server sent the result without the job. */
function jobOf(started: StartedScan): ScanJob | null {
  if (started.job) return started.job;
  if (!started.result) return null;
  const { scanned } = started.result;
  return {
    id: started.jobId,
    created_at: new Date().toISOString(),
    status: 'completed',
    progress: { done: scanned, total: scanned },
    result: started.result,
    error: '',
  };
}

/**
 * The scan's states (spec §4: idle, scanning, result shown). 'Run Scan' posts run-finder-scan, which waits
 * a while for the scan; meanwhile, and afterwards while the job still runs, GET /api/finder/scans/latest is
 * polled so the bar shows the server's real count. The end of a job this page saw running is announced
 * once: 'Scan Complete' or 'Scan Failed'. A latest scan that cannot be read is ignored (spec §8).
 */
export function useCatalogScan(userId: string): CatalogScan {
  const queryClient = useQueryClient();
  const latestKey = ['finder', 'scan', 'latest', userId];
  /** The job whose end this page announces (one started here, or one found running on arrival). */
  const [watching, setWatching] = useState<string | null>(null);

  const start = useMutation({
    mutationFn: startScan,
    onSuccess: (started) => {
      const job = jobOf(started);
      if (job) queryClient.setQueryData(latestKey, job);
      if (started.result) announceComplete(started.result.flagged);
      else setWatching(started.jobId);
      void queryClient.invalidateQueries({ queryKey: latestKey });
    },
    onError: (error) => {
      console.error('Finder scan failed', error);
      announceFailed(scanFailure(error));
    },
  });

  const latestQuery = useQuery({
    queryKey: latestKey,
    queryFn: fetchLatestScan,
    retry: false,
    refetchInterval: (query) =>
      start.isPending || query.state.data?.status === 'running' ? SCAN_POLL_MS : false,
  });
  useEffect(() => {
    if (latestQuery.error) console.error('Latest Finder scan could not be read', latestQuery.error);
  }, [latestQuery.error]);

  const latest = latestQuery.data ?? null;
  useEffect(() => {
    if (!latest) return;
    if (latest.status === 'running') {
      if (watching !== latest.id && !start.isPending) setWatching(latest.id);
      return;
    }
    if (watching !== latest.id) return;
    setWatching(null);
    if (latest.status === 'completed' && latest.result) announceComplete(latest.result.flagged);
    else announceFailed(latest.error.trim() || FINDER_MESSAGES.scanFailed);
  }, [latest, watching, start.isPending]);

  const withResult = useRef<ScanJob | null>(null);
  if (latest?.result) withResult.current = latest;

  const running = latest?.status === 'running';
  return {
    latest,
    shown: withResult.current,
    scanning: start.isPending || running,
    progress: running ? latest.progress : null,
    run: () => start.mutate(),
  };
}
