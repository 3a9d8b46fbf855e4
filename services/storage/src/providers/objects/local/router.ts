// The HTTP side of the local object store: serves the links presignPut/presignGet/publicUrl hand out.
//   PUT /objects/:bucket/*key  signed upload, only from the owner it was signed for, streamed to disk with a
//                              byte limit
//   GET /objects/:bucket/*key  signed download, or unsigned for public buckets; Range and If-None-Match
// Every refusal is a 4xx with {error:{message}} a person can act on; nothing a client sends yields a 5xx.
import { pipeline } from 'node:stream/promises';
import { closeAfterEarlyAnswer, type Logger } from '@omni/platform';
import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import {
  BucketNotFoundError,
  ObjectExistsError,
  ObjectNotFoundError,
  UploadCredentialError,
  type UploadCredentials,
  type UploadReplaceable,
} from '../port';
import {
  InvalidBucketNameError,
  InvalidObjectKeyError,
  ObjectSizeMismatchError,
  ObjectTooLargeError,
} from './errors';
import { MESSAGES, sendError } from './http-errors';
import { assertBucketName, assertObjectKey } from './keys';
import type { LocalDiskObjectStore } from './local-store';
import { etagMatches, parseRange } from './range';
import { verify } from './signing';

const uploadQuery = z.object({
  expires: z.string().regex(/^\d{1,12}$/),
  maxSize: z.string().regex(/^\d{1,16}$/),
  contentType: z.string().min(1).max(255),
  owner: z.string().min(1).max(255),
  overwrite: z.literal('1').optional(),
  sig: z.string().max(128),
});

const downloadQuery = z.object({
  expires: z.string().regex(/^\d{1,12}$/),
  sig: z.string().max(128),
});

/** `credentials` says which owner subject a PUT proves; the link's signed owner must be that subject. */
export function createObjectsRouter(
  store: LocalDiskObjectStore,
  log: Logger,
  credentials: UploadCredentials,
  replaceable: UploadReplaceable = async () => true,
): express.Router {
  const router = express.Router();

  router.put('/objects/:bucket/*key', async (req, res) => {
    const target = parseTarget(req, res);
    if (!target) return;
    const { bucket, key } = target;

    const query = uploadQuery.safeParse(req.query);
    if (!query.success) return refuseUpload(req, res, 403, MESSAGES.uploadInvalid);
    const maxSize = Number(query.data.maxSize);
    const contentType = query.data.contentType;
    const check = verify(
      store.secret,
      {
        method: 'PUT',
        bucket,
        key,
        expires: Number(query.data.expires),
        maxSize,
        contentType,
        owner: query.data.owner,
        overwrite: query.data.overwrite === '1',
      },
      query.data.sig,
    );
    const overwrite = query.data.overwrite === '1';
    if (check === 'invalid') return refuseUpload(req, res, 403, MESSAGES.uploadInvalid);
    if (check === 'expired') return refuseUpload(req, res, 403, MESSAGES.uploadExpired);

    // A link is not a bearer capability: whoever sends the bytes must prove they are the owner it was signed
    // for. Checked before anything is stored, so a refused sender leaves the slot free for the owner.
    const refusal = await senderRefusal(credentials, req, query.data.owner, log);
    if (refusal) {
      if (refusal.status === 401) res.set('WWW-Authenticate', 'Bearer');
      return refuseUpload(req, res, refusal.status, refusal.message);
    }

    // An overwrite link outlives the moment its file is submitted: from then on an asset refers to these
    // bytes (perhaps already approved), so they are not replaced behind the reviewer's back.
    if (overwrite && !(await replaceable(bucket, key))) {
      return refuseUpload(req, res, 409, MESSAGES.alreadySubmitted);
    }

    const sentType = req.headers['content-type'];
    if (mediaType(sentType) !== mediaType(contentType)) {
      return refuseUpload(req, res, 400, MESSAGES.wrongType(contentType, sentType));
    }
    const declared = req.headers['content-length'];
    const declaredSize = declared === undefined ? undefined : Number(declared);
    // Refuse before reading a byte: the client announced more than the link allows.
    if (declaredSize !== undefined && declaredSize > maxSize) {
      return refuseUpload(req, res, 413, MESSAGES.tooLarge(maxSize));
    }

    try {
      if (!overwrite && (await store.statObject(bucket, key)))
        return refuseUpload(req, res, 409, MESSAGES.exists);
      const info = await store.put(
        bucket,
        key,
        req,
        { contentType, size: declaredSize, overwrite },
        { maxSize },
      );
      log.info({ bucket, key, size: info.size }, 'object uploaded through a signed link');
      res.status(200).json({ bucket, key, size: info.size, etag: info.etag });
    } catch (err) {
      if (err instanceof ObjectTooLargeError) return refuseUpload(req, res, 413, MESSAGES.tooLarge(maxSize));
      if (err instanceof ObjectExistsError) return refuseUpload(req, res, 409, MESSAGES.exists);
      if (err instanceof BucketNotFoundError) return refuseUpload(req, res, 404, MESSAGES.noBucket);
      if (err instanceof InvalidObjectKeyError) return refuseUpload(req, res, 400, err.message);
      if (err instanceof ObjectSizeMismatchError) return refuseUpload(req, res, 400, MESSAGES.sizeMismatch);
      if (req.destroyed || req.readableAborted) {
        log.info({ bucket, key }, 'upload aborted by the client; nothing stored');
        return sendError(res, 400, MESSAGES.aborted);
      }
      log.error({ err, bucket, key }, 'upload failed');
      return refuseUpload(req, res, 500, MESSAGES.internal);
    }
  });

  router.get('/objects/:bucket/*key', async (req, res) => {
    const target = parseTarget(req, res);
    if (!target) return;
    const { bucket, key } = target;

    const signed = 'sig' in req.query;
    if (signed) {
      const query = downloadQuery.safeParse(req.query);
      if (!query.success) return sendError(res, 403, MESSAGES.downloadInvalid);
      const check = verify(
        store.secret,
        { method: 'GET', bucket, key, expires: Number(query.data.expires) },
        query.data.sig,
      );
      if (check === 'invalid') return sendError(res, 403, MESSAGES.downloadInvalid);
      if (check === 'expired') return sendError(res, 403, MESSAGES.downloadExpired);
    } else if (!store.isPublicBucket(bucket)) {
      return sendError(res, 403, MESSAGES.privateFile);
    }

    let opened: Awaited<ReturnType<LocalDiskObjectStore['openObject']>>;
    try {
      opened = await store.openObject(bucket, key);
    } catch (err) {
      if (err instanceof ObjectNotFoundError || err instanceof BucketNotFoundError) {
        return sendError(res, 404, MESSAGES.notFound);
      }
      log.error({ err, bucket, key }, 'could not open object');
      return sendError(res, 500, MESSAGES.internal);
    }

    const { info, handle } = opened;
    try {
      const defaultCache = signed ? 'private, max-age=3600' : 'public, max-age=3600';
      res.set({
        'Cache-Control': opened.cacheControl ?? defaultCache,
        ETag: `"${info.etag}"`,
        'Last-Modified': info.lastModified.toUTCString(),
        'Accept-Ranges': 'bytes',
        'X-Content-Type-Options': 'nosniff',
        // Uploaded files are served from our origin: never let one run as a page with our cookies.
        'Content-Security-Policy': "default-src 'none'; sandbox",
      });
      if (etagMatches(req.headers['if-none-match'], info.etag)) {
        await handle.close();
        res.status(304).end();
        return;
      }
      res.set('Content-Type', info.contentType);
      const range = parseRange(req.headers.range, info.size);
      if (range.kind === 'unsatisfiable') {
        await handle.close();
        res
          .status(416)
          .set('Content-Range', `bytes */${info.size}`)
          .json({
            error: { message: `The requested range is outside this ${info.size}-byte file.` },
          });
        return;
      }
      const [status, start, end] =
        range.kind === 'range' ? [206, range.start, range.end] : [200, 0, Math.max(0, info.size - 1)];
      res.status(status).set('Content-Length', String(info.size === 0 ? 0 : end - start + 1));
      if (status === 206) res.set('Content-Range', `bytes ${start}-${end}/${info.size}`);
      if (req.method === 'HEAD' || info.size === 0) {
        await handle.close();
        res.end();
        return;
      }
      await pipeline(handle.createReadStream({ start, end }), res);
    } catch (err) {
      await handle.close().catch(() => undefined);
      // The client going away mid-download is routine; anything else is worth a line.
      if (!res.destroyed && !req.destroyed) log.error({ err, bucket, key }, 'download failed');
      if (!res.headersSent) sendError(res, 500, MESSAGES.internal);
      else res.destroy();
    }
  });

  // Errors Express raises itself on these paths (an undecodable %-escape in the key) are the client's.
  router.use('/objects', (err: unknown, _req: Request, res: Response, next: NextFunction) => {
    const status = (err as { status?: number }).status;
    if (status && status >= 400 && status < 500) return sendError(res, 400, MESSAGES.malformedUrl);
    next(err);
  });

  return router;
}

async function senderRefusal(
  credentials: UploadCredentials,
  req: Request,
  owner: string,
  log: Logger,
): Promise<{ status: number; message: string } | undefined> {
  let subject: string | undefined;
  try {
    subject = await credentials(req.headers);
  } catch (err) {
    if (err instanceof UploadCredentialError) return { status: 401, message: err.message };
    log.error({ err }, 'could not check the credential of an upload');
    return { status: 503, message: MESSAGES.credentialsUnavailable };
  }
  if (subject === undefined) return { status: 401, message: MESSAGES.signInToUpload };
  if (subject !== owner) return { status: 403, message: MESSAGES.notYourUpload };
  return undefined;
}

function parseTarget(req: Request, res: Response): { bucket: string; key: string } | undefined {
  const bucket = String(req.params.bucket);
  const raw = req.params.key as unknown;
  // Express 5 gives the wildcard as decoded segments; segments may themselves hold a decoded '/', '..' or
  // NUL (from %2F, %2E, %00): re-joining and validating the whole key catches all of them.
  const key = Array.isArray(raw) ? raw.join('/') : String(raw);
  try {
    assertBucketName(bucket);
    assertObjectKey(key);
  } catch (err) {
    if (err instanceof InvalidBucketNameError || err instanceof InvalidObjectKeyError) {
      refuseUpload(req, res, 400, MESSAGES.badPath);
      return undefined;
    }
    throw err;
  }
  return { bucket, key };
}

/**
 * Sends a refusal for a request whose body may still be arriving: with `Connection: close`, and the rest
 * of the body read and dropped for a grace period before the socket closes, so the client reads the
 * refusal instead of a reset connection (platform/http/early-answer.ts).
 */
function refuseUpload(req: Request, res: Response, status: number, message: string): void {
  if (req.method === 'PUT') closeAfterEarlyAnswer(req, res);
  sendError(res, status, message);
}

function mediaType(value: string | undefined): string {
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}
