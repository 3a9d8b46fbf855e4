// catalog: artists, releases, tracks, ISRC and UPC allocation (grows with the releases issue).
// For now it starts, serves its gRPC contract and health, and owns its (empty) document store.
import type { ServiceModule } from '@omni/platform';
import { catalog } from '@omni/proto';
import { catalogHandlers } from './grpc/server';

export const catalogService: ServiceModule = {
  name: 'catalog',
  description: 'artists, releases, tracks, ISRC and UPC allocation',
  async init(ctx) {
    const store = await ctx.ports.documents('catalog');
    ctx.grpc.add(catalog.CatalogServiceService, catalogHandlers());
    ctx.readiness('documents', () => store.healthy());
  },
};
