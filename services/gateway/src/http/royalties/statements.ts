// /api/admin/statements: admins import stores' sales reports and resolve the lines no recording matched.
// The file itself is streamed on to royalties, never held here: the gateway opens the import over gRPC
// (which hands back a one-use upload path) and forwards the request body to that path.
import { type Guards, HttpError, type Logger, type PromiseClient, parseBody } from '@omni/platform';
import type { delivery, royalties } from '@omni/proto';
import {
  isStatementSource,
  resolveUnmatchedBody,
  STATEMENT_SOURCES,
  statementImport,
  statementList,
  unmatchedList,
} from '@omni/proto/api';
import express, { Router as createRouter, type Request, type Router } from 'express';
import * as z from 'zod/mini';
import { forwardTo } from '../proxy';

type RoyaltiesClient = PromiseClient<typeof royalties.RoyaltiesServiceService>;
type DeliveryClient = PromiseClient<typeof delivery.DeliveryServiceService>;

const IMPORT_ID = /^[A-Za-z0-9-]{1,64}$/;
const uploadPaths = new WeakMap<Request, string>();

export function statementRoutes(
  client: RoyaltiesClient,
  deliveryClient: DeliveryClient,
  guards: Guards,
  deps: { royaltiesHttp: () => string; logger: Logger },
): Router {
  const router = createRouter();
  router.use('/statements', guards.requireAdmin);
  const forward = forwardTo(
    deps.royaltiesHttp,
    deps.logger,
    'Royalties',
    (req) => uploadPaths.get(req) ?? '/',
  );

  router.post('/statements', async (req, res, next) => {
    try {
      const source = req.query.source;
      if (!isStatementSource(source))
        throw new HttpError(
          400,
          `Say which format the file is in: ?source= one of ${STATEMENT_SOURCES.map((s) => s.value).join(', ')}.`,
          'invalid_request',
        );
      const fileName = decodeHeader(req.headers['x-file-name']);
      if (!fileName) throw new HttpError(400, 'Name the file in the X-File-Name header.', 'invalid_request');
      const hasBody =
        req.headers['transfer-encoding'] !== undefined ||
        (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
      if (!hasBody)
        throw new HttpError(
          400,
          'The file is empty: send the statement as the request body.',
          'invalid_request',
        );
      const { uploadPath } = await client.openStatementUpload({
        source,
        fileName,
        adminId: req.principal!.userId,
      });
      uploadPaths.set(req, uploadPath);
      forward(req, res, next);
    } catch (err) {
      next(err);
    }
  });

  router.get('/statements', async (_req, res) => {
    const { listJson } = await client.listStatementImports({ limit: 100 });
    res.set('Cache-Control', 'no-store').json(z.parse(statementList, JSON.parse(listJson)));
  });

  router.get('/statements/unmatched', async (_req, res) => {
    const { listJson } = await client.listUnmatched({});
    res.set('Cache-Control', 'no-store').json(z.parse(unmatchedList, JSON.parse(listJson)));
  });

  router.post('/statements/unmatched/resolve', express.json(), async (req, res) => {
    const body = parseBody(resolveUnmatchedBody, req, { first: true });
    const { lines } = await client.resolveUnmatched({
      identifier: body.identifier,
      action: body.action,
      to: body.action === 'attach' ? body.to : '',
      adminId: req.principal!.userId,
    });
    res.json({ lines });
  });

  // The store simulator's reports for the month so far (only where the simulator runs: npm start, the
  // one-machine cluster). Elsewhere there are no simulated stores to ask, and the screen hides the button.
  router.get('/statements/store-reports', async (_req, res) => {
    const { available } = await deliveryClient.writeStoreReports({ dryRun: true });
    res.json({ available });
  });
  router.post('/statements/store-reports', async (_req, res) => {
    const { available, files } = await deliveryClient.writeStoreReports({ dryRun: false });
    if (!available)
      throw new HttpError(
        404,
        'No simulated stores run here: real stores send their own reports.',
        'not_found',
      );
    await client.scanReportFolder({}).catch(() => undefined);
    res.status(202).json({ files });
  });

  router.get('/statements/:id', async (req, res) => {
    const id = String(req.params.id);
    if (!IMPORT_ID.test(id)) throw new HttpError(404, 'No such import.', 'not_found');
    const { importJson } = await client.getStatementImport({ importId: id });
    if (!importJson) throw new HttpError(404, 'No such import.', 'not_found');
    res.set('Cache-Control', 'no-store').json(z.parse(statementImport, JSON.parse(importJson)));
  });

  return router;
}

/** X-File-Name may be percent-encoded (a browser cannot put non-ASCII in a header otherwise). */
function decodeHeader(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return '';
  try {
    return decodeURIComponent(raw).trim();
  } catch {
    return raw.trim();
  }
}
