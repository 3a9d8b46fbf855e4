// /api/finder: the spec's run-finder-scan (POST /scans → {ok, data: {job_id, result}}, result null while the
// scan still runs after SCAN_WAIT_MS), the latest job, the CSV export and the play-count import. The caller
// is the signed-in account; finder itself asks billing for the subscription (a page cannot skip it). A
// play-count import is up to 5 MB of work for the finder, so each account may send only a few per window
// (counted before the body is read, in the gateway's rate-limit counters).
import { type Guards, HttpError, type PromiseClient, parseBody, parseParams } from '@omni/platform';
import type { finder } from '@omni/proto';
import {
  type ImportPlaysResponse,
  type LatestScanResponse,
  MAX_PLAYS_CSV_BYTES,
  PLAYS_IMPORT_LIMIT,
  PLAYS_RATE_LIMITED,
  SCAN_WAIT_MS,
  type ScanResponse,
  scanBody,
} from '@omni/proto/api';
import express, { Router as createRouter, type Router } from 'express';
import * as z from 'zod/mini';
import { type RateLimitOptions, rateLimit } from '../../providers/rate-limit/rate-limit';
import { jobJson } from './job-json';

type FinderClient = PromiseClient<typeof finder.FinderServiceService>;

const jobParams = z.object({ id: z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}$/, 'No such scan.')) });

/** How long the gateway waits for an import: a full 5 MB file is read in slices and stored in chunks. */
const IMPORT_DEADLINE_MS = 60_000;

export function finderRoutes(
  client: FinderClient,
  guards: Guards,
  limits: Pick<RateLimitOptions, 'store' | 'fallback' | 'logger'>,
): Router {
  const router = createRouter();
  router.use(guards.requireUser);
  const importsPerAccount = rateLimit(
    [
      {
        name: 'finder-plays:account',
        limit: PLAYS_IMPORT_LIMIT.imports,
        windowMs: PLAYS_IMPORT_LIMIT.windowMs,
        keys: (req) => [req.principal!.userId],
      },
    ],
    { ...limits, message: PLAYS_RATE_LIMITED },
  );

  router.post('/scans', async (req, res) => {
    const body = parseBody(scanBody, req, { first: true });
    const { job } = await client.startScan(
      {
        accountId: req.principal!.userId,
        scanScope: body.scan_scope,
        isrcs: body.isrcs,
        waitMs: SCAN_WAIT_MS,
      },
      // The call outlives the wait it asks for (the default deadline is shorter than SCAN_WAIT_MS).
      { deadlineMs: SCAN_WAIT_MS + 5000 },
    );
    const rest = jobJson(job!);
    const answer: ScanResponse = {
      ok: rest.status !== 'failed',
      data: { job_id: rest.id, result: rest.result, job: rest },
      ...(rest.status === 'failed' ? { error: { message: rest.error } } : {}),
    };
    res.set('Cache-Control', 'no-store').json(answer);
  });

  router.get('/scans/latest', async (req, res) => {
    const { job } = await client.getLatestScan({ accountId: req.principal!.userId });
    const answer: LatestScanResponse = { job: job ? jobJson(job) : null };
    res.set('Cache-Control', 'no-store').json(answer);
  });

  router.get('/scans/:id/export.csv', async (req, res) => {
    const { id } = parseParams(jobParams, req);
    const file = await client.exportScan({ accountId: req.principal!.userId, jobId: id });
    res
      .set('Cache-Control', 'no-store')
      .type('text/csv; charset=utf-8')
      .attachment(file.fileName)
      .send(Buffer.from(file.csv));
  });

  router.post(
    '/plays',
    importsPerAccount,
    express.text({ type: ['text/csv', 'text/plain', 'application/csv'], limit: MAX_PLAYS_CSV_BYTES }),
    async (req, res) => {
      if (typeof req.body !== 'string')
        throw new HttpError(
          415,
          'Send the play counts as a CSV file (Content-Type: text/csv).',
          'unsupported',
        );
      const answer: ImportPlaysResponse = await client.importPlays(
        { accountId: req.principal!.userId, csv: Buffer.from(req.body, 'utf8') },
        { deadlineMs: IMPORT_DEADLINE_MS },
      );
      res.set('Cache-Control', 'no-store').json(answer);
    },
  );
  return router;
}
