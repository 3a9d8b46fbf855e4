// finder's ScanJob (gRPC) → the REST ScanJob (proto/api/finder.ts): the stored result JSON passes through
// as the service wrote it, parsed once so the answer is one JSON document.
import type { finder } from '@omni/proto';
import type { FinderResult, ScanJob } from '@omni/proto/api';

export function jobJson(job: finder.ScanJob): ScanJob {
  return {
    id: job.id,
    created_at: job.createdAt,
    status: job.status as ScanJob['status'],
    progress: { done: job.progressDone, total: job.progressTotal },
    result: job.resultJson ? (JSON.parse(job.resultJson) as FinderResult) : null,
    error: job.error,
  };
}
