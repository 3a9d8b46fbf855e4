// Uploads and storage status for the console, the artist upload form and the song submission panel.
//   POST /api/uploads/sign      → a short-lived signed PUT bound to the caller, bucket, key and size
//   POST /api/uploads/complete  → storage sniffs and inspects the bytes; refused files are removed (400)
//   GET  /api/uploads           → the caller's stored files
//   GET  /api/storage/status    → the setup checklist: buckets and tables as they really are
// The bytes themselves never pass through here: the browser PUTs them to the signed URL (/objects/...).
import {
  type Guards,
  type PromiseClient,
  parseBody,
  parseQuery,
  type ServiceContext,
  type ServiceName,
} from '@omni/platform';
import { health, storage } from '@omni/proto';
import { Router as createRouter, type Router } from 'express';
import { z } from 'zod';

const PURPOSES = {
  console: storage.UploadPurpose.UPLOAD_PURPOSE_CONSOLE,
  'artist-upload': storage.UploadPurpose.UPLOAD_PURPOSE_ARTIST_UPLOAD,
  'song-submission': storage.UploadPurpose.UPLOAD_PURPOSE_SONG_SUBMISSION,
  contributor: storage.UploadPurpose.UPLOAD_PURPOSE_CONTRIBUTOR,
} as const;

const bucketName = z.string().trim().min(1, 'Choose a bucket.').max(63);

const signBody = z
  .object({
    bucket: bucketName,
    fileName: z.string().trim().min(1, 'The file needs a name.').max(1024),
    contentType: z.string().trim().max(255).optional().default('application/octet-stream'),
    size: z.number().int('size must be a whole number of bytes.').min(0).max(Number.MAX_SAFE_INTEGER),
    purpose: z.enum(Object.keys(PURPOSES) as [keyof typeof PURPOSES]).default('console'),
    folder: z.string().max(300).optional().default(''),
    title: z.string().max(300).optional().default(''),
  })
  .strict();

const completeBody = z
  .object({
    bucket: bucketName,
    fileKey: z.string().min(1, 'fileKey is required.').max(1024),
    role: z.enum(['audio', 'artwork']).optional(),
  })
  .strict();

const discardBody = z
  .object({
    bucket: bucketName,
    fileKey: z.string().min(1, 'fileKey is required.').max(1024),
  })
  .strict();

const listQuery = z
  .object({
    bucket: z.string().max(63).optional(),
    limit: z.coerce.number().int().min(1).max(200).optional(),
  })
  .strict();

/** The setup checklist's tables and the service that owns each. */
const TABLES: { name: string; owner: ServiceName }[] = [
  { name: 'releases', owner: 'catalog' },
  { name: 'tracks', owner: 'catalog' },
  { name: 'artists', owner: 'catalog' },
  { name: 'delivery_jobs', owner: 'delivery' },
];

export function uploadRoutes(ctx: Pick<ServiceContext, 'client'>, guards: Guards): Router {
  const client = ctx.client('storage', storage.StorageServiceService);
  const healthOf = (service: ServiceName) => ctx.client(service, health.HealthService);
  const router = createRouter();

  router.post('/uploads/sign', guards.requireUser, async (req, res) => {
    const body = parseBody(signBody, req);
    const signed = await client.signUpload({
      ownerId: req.principal!.userId,
      bucket: body.bucket,
      fileName: body.fileName,
      contentType: body.contentType,
      size: body.size,
      purpose: PURPOSES[body.purpose],
      folder: body.folder,
      title: body.title,
      pathOwner: '',
    });
    res.set('Cache-Control', 'no-store').json(signed);
  });

  router.post('/uploads/complete', guards.requireUser, async (req, res) => {
    const body = parseBody(completeBody, req);
    // Inspection reads only headers and ranges, but a slow disk under a 2 GB file deserves some slack.
    const done = await client.completeUpload(
      {
        ownerId: req.principal!.userId,
        bucket: body.bucket,
        fileKey: body.fileKey,
        role: body.role ?? '',
        expectKind: '',
      },
      { deadlineMs: 60_000 },
    );
    res.json({ accepted: done.accepted, inspection: done.inspection, publicUrl: done.publicUrl });
  });

  // The caller's own upload from a try that failed before its release was made (issue 21 §3.7): removed,
  // unless a release may use it (409). Someone else's or a missing file is 404.
  router.post('/uploads/discard', guards.requireUser, async (req, res) => {
    const body = parseBody(discardBody, req);
    await client.discardUpload({
      ownerId: req.principal!.userId,
      bucket: body.bucket,
      fileKey: body.fileKey,
    });
    res.status(204).end();
  });

  router.get('/uploads', guards.requireUser, async (req, res) => {
    const query = parseQuery(listQuery, req);
    const { files } = await client.listUploads({
      ownerId: req.principal!.userId,
      bucket: query.bucket ?? '',
      limit: query.limit ?? 50,
    });
    res.set('Cache-Control', 'no-store').json({ files });
  });

  router.get('/storage/status', guards.requireUser, async (_req, res) => {
    const [{ buckets }, tables] = await Promise.all([client.listBuckets({}), tableStatus(healthOf)]);
    res.set('Cache-Control', 'no-store').json({ buckets, tables });
  });

  return router;
}

/** A table "exists" when the service that owns it is up and serving its store. */
async function tableStatus(healthOf: (service: ServiceName) => PromiseClient<typeof health.HealthService>) {
  const serving = new Map<ServiceName, Promise<boolean>>();
  const check = (service: ServiceName) => {
    let answer = serving.get(service);
    if (!answer) {
      answer = healthOf(service)
        .check({ service }, { deadlineMs: 1000 })
        .then(
          (r) => r.status === health.HealthCheckResponse_ServingStatus.SERVING,
          () => false,
        );
      serving.set(service, answer);
    }
    return answer;
  };
  return Promise.all(TABLES.map(async ({ name, owner }) => ({ name, exists: await check(owner) })));
}
