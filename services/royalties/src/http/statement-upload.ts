// The one HTTP route royalties serves: the bytes of a statement for an import the gateway opened (admin
// checked there) through gRPC. The path carries a one-use token only royalties and that gateway request
// know, valid ten minutes, so the route needs no other caller check and cannot be replayed.
import { HttpError } from '@omni/platform';
import { MAX_STATEMENT_BYTES } from '@omni/proto/api';
import { Router as createRouter, type Router } from 'express';
import { TooLarge } from '../providers/spool/local';
import { hashToken, type ReceiveDeps, receive, UploadRefused } from '../use-cases/receive-statement';
import { importJson } from '../use-cases/statement-json';

export function statementUploadRoutes(deps: ReceiveDeps): Router {
  const router = createRouter();
  router.post('/statements/upload/:token', async (req, res, next) => {
    try {
      const imp = await deps.imports.byTokenHash(hashToken(String(req.params.token)));
      if (imp?.state !== 'receiving' || !imp.tokenExpiresAt || imp.tokenExpiresAt < new Date().toISOString())
        throw new HttpError(
          403,
          'This upload link has expired or was used. Send the file again.',
          'forbidden',
        );
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > MAX_STATEMENT_BYTES) throw new TooLarge(MAX_STATEMENT_BYTES);
      const { imp: result, duplicate } = await receive(deps, imp, req);
      res.status(duplicate ? 200 : 202).json({ id: result._id, duplicate, import: importJson(result) });
    } catch (err) {
      if (err instanceof TooLarge) return next(new HttpError(413, err.message, 'too_large'));
      if (err instanceof UploadRefused)
        return next(new HttpError(err.status, err.message, 'invalid_request'));
      next(err);
    }
  });
  return router;
}
