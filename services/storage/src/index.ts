// storage: buckets, signed upload and download URLs, object inspection. Embedded mode serves the signed
// URLs from its own HTTP endpoints (the gateway forwards /objects/* here); MinIO serves them in production.
import { type ServiceModule, tokenVerifierFor } from '@omni/platform';
import { storage } from '@omni/proto';
import { BUCKETS, PUBLIC_BUCKETS } from './domain/buckets';
import { onAssetApproved } from './events/asset-approved';
import { storageHandlers } from './grpc/server';
import { uploadCredentials } from './http/upload-credentials';
import { describeObjectStore, openObjectStore } from './providers/objects/open';
import { replaceable, uploadId, uploadsCollection } from './store/uploads';
import { sweepAbandonedUploads } from './use-cases/sweep-abandoned';

export { PUBLIC_BUCKETS } from './domain/buckets';
export const storageService: ServiceModule = {
  name: 'storage',
  description: 'buckets, signed URLs, object inspection',
  // The embedded issuer's keys (identity's HTTP), to check who sends an upload.
  calls: ['identity'],
  consumes: ['asset.approved'],
  produces: [],
  ports: ['documents', 'events'],
  providers: { objects: describeObjectStore },
  async init(ctx) {
    const store = await ctx.ports.documents('storage');
    const { objects, local } = await openObjectStore(ctx.config, ctx.logger, PUBLIC_BUCKETS);
    ctx.onStop(() => objects.close());
    const bus = await ctx.ports.events();
    // Every bucket the spec names exists from the first start (idempotent on later ones).
    for (const bucket of Object.keys(BUCKETS)) await objects.ensureBucket(bucket);
    // The embedded store serves its own upload URLs and checks each sender against the signed owner with
    // the credentials storage recognises. (MinIO serves S3's presigned URLs: see docs/architecture.md §6.)
    // An overwrite (upsert) link replaces a file only until it is submitted (status complete).
    const uploads = uploadsCollection(store);
    const mayReplace = async (bucket: string, key: string) =>
      replaceable(await uploads.findById(uploadId(bucket, key)));
    if (local) ctx.http.use(local.router(uploadCredentials(tokenVerifierFor(ctx.config)), mayReplace));
    // How long a signed upload link lives is an operator's setting (UPLOAD_LINK_SECONDS).
    const uploadUrlSeconds = ctx.config.env.UPLOAD_LINK_SECONDS;
    ctx.grpc.add(
      storage.StorageServiceService,
      storageHandlers(store, objects, ctx.logger, { uploadUrlSeconds }),
    );
    // Files uploaded for releases never made go after ABANDONED_UPLOAD_HOURS, checked at a tenth of that
    // (between 1 s and an hour), and once at start.
    const abandonedMs = ctx.config.env.ABANDONED_UPLOAD_HOURS * 3_600_000;
    const sweepCtx = { uploads, objects, log: ctx.logger, now: () => new Date(), uploadUrlSeconds };
    const sweep = () =>
      sweepAbandonedUploads(sweepCtx, abandonedMs).catch((err) =>
        ctx.logger.error({ err }, 'sweeping abandoned uploads failed'),
      );
    const sweeper = setInterval(sweep, Math.min(3_600_000, Math.max(1000, abandonedMs / 10)));
    sweeper.unref();
    void sweep();
    ctx.onStop(() => clearInterval(sweeper));
    const subscription = await onAssetApproved(bus, store, ctx.logger);
    ctx.onStop(() => subscription.close());
    ctx.readiness('documents', () => store.healthy());
    ctx.readiness('objects', () => objects.healthy());
    ctx.readiness('events', () => bus.healthy());
  },
};
