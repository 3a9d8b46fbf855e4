// storage: buckets, signed upload and download URLs, object inspection. Embedded mode serves the signed
// URLs from its own HTTP endpoints (the gateway forwards /objects/* here); MinIO serves them in production.
import type { ServiceModule } from '@omni/platform';
import { storage } from '@omni/proto';
import { BUCKETS } from './domain/buckets';
import { onAssetApproved } from './events/asset-approved';
import { type StorageOptions, storageHandlers } from './grpc/server';

export { PUBLIC_BUCKETS } from './domain/buckets';
export type { StorageOptions } from './grpc/server';

/** A storage module with its clock or upload-link lifetime replaced (tests); `storageService` is the default. */
export function createStorageService(options: StorageOptions = {}): ServiceModule {
  return {
    name: 'storage',
    description: 'buckets, signed URLs, object inspection',
    async init(ctx) {
      const store = await ctx.ports.documents('storage');
      const objects = await ctx.ports.objects();
      const bus = await ctx.ports.events();
      // Every bucket the spec names exists from the first start (idempotent on later ones).
      for (const bucket of Object.keys(BUCKETS)) await objects.ensureBucket(bucket);
      if ('router' in objects && typeof objects.router === 'function') ctx.http.use(objects.router());
      ctx.grpc.add(storage.StorageServiceService, storageHandlers(store, objects, ctx.logger, options));
      const subscription = await onAssetApproved(bus, store, ctx.logger);
      ctx.onStop(() => subscription.close());
      ctx.readiness('documents', () => store.healthy());
      ctx.readiness('objects', () => objects.healthy());
      ctx.readiness('events', () => bus.healthy());
    },
  };
}

export const storageService: ServiceModule = createStorageService();
