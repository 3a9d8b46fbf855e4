// storage: buckets, signed upload and download URLs, object inspection. Embedded mode serves the signed
// URLs from its own HTTP endpoints (the gateway forwards /objects/* here); MinIO serves them in production.
import type { ServiceModule } from '@omni/platform';
import { storage } from '@omni/proto';
import { BUCKETS } from './domain/buckets';
import { onAssetApproved } from './events/asset-approved';
import { storageHandlers } from './grpc/server';

export const storageService: ServiceModule = {
  name: 'storage',
  description: 'buckets, signed URLs, object inspection',
  async init(ctx) {
    const store = await ctx.ports.documents('storage');
    const objects = await ctx.ports.objects();
    const bus = await ctx.ports.events();
    for (const bucket of Object.keys(BUCKETS)) await objects.ensureBucket(bucket);
    if ('router' in objects && typeof objects.router === 'function') ctx.http.use(objects.router());
    ctx.grpc.add(storage.StorageServiceService, storageHandlers());
    const subscription = await onAssetApproved(bus, store, ctx.logger);
    ctx.onStop(() => subscription.close());
    ctx.readiness('documents', () => store.healthy());
    ctx.readiness('objects', () => objects.healthy());
    ctx.readiness('events', () => bus.healthy());
  },
};
