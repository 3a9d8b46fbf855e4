// FinderService over gRPC: adapts requests to the scan use cases and jobs to the contract's ScanJob.
import { fail, type PromiseClient, type UnaryImpl, unauthenticated } from '@omni/platform';
import type { billing, finder } from '@omni/proto';
import type { JobDoc, JobsRepository } from '../store/jobs';
import type { PlaysRepository } from '../store/plays';
import { exportScan } from '../use-cases/export-scan';
import { importPlays } from '../use-cases/import-plays';
import type { Scans } from '../use-cases/start-scan';

const account = (id: string) => {
  if (!id.trim()) throw unauthenticated('Please sign in first.');
  return id;
};

export function jobToProto(job: JobDoc): finder.ScanJob {
  return {
    id: job._id,
    accountId: job.user_id,
    createdAt: job.created_at,
    status: job.status,
    progressDone: job.progress.done,
    progressTotal: job.progress.total,
    resultJson: job.result ? JSON.stringify(job.result) : '',
    error: job.error,
    completedAt: job.completed_at,
  };
}

export function finderHandlers(deps: {
  scans: Scans;
  jobs: JobsRepository;
  plays: PlaysRepository;
  billing: PromiseClient<typeof billing.BillingServiceService>;
  publicUrl: string;
}): UnaryImpl<typeof finder.FinderServiceService> {
  const { scans, jobs, plays, publicUrl } = deps;
  return {
    async startScan(req) {
      const job = await scans.start({
        accountId: account(req.accountId),
        scope: (req.scanScope || 'global') as 'global' | 'isrcs',
        isrcs: req.isrcs,
        waitMs: Math.max(0, Math.min(req.waitMs, 60_000)),
      });
      return { job: jobToProto(job) };
    },

    async getLatestScan(req) {
      const job = await jobs.latest(account(req.accountId));
      return { job: job ? jobToProto(job) : undefined };
    },

    async exportScan(req) {
      const { fileName, csv } = await exportScan(jobs, publicUrl, account(req.accountId), req.jobId);
      return { fileName, csv: Buffer.from(csv, 'utf8') };
    },

    async importPlays(req) {
      if (req.csv.length === 0)
        throw fail('invalid_request', 'The file is empty. Send a CSV with the header isrc,territory,plays.');
      const csv = Buffer.from(req.csv.buffer, req.csv.byteOffset, req.csv.byteLength);
      return importPlays({ plays, billing: deps.billing }, account(req.accountId), csv);
    },
  };
}
