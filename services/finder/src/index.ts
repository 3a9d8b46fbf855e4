// finder: catalogue scans for unclaimed royalties (grows with the finder issue).
// For now it starts, serves its gRPC contract and health, and owns its (empty) document store.
import type { ServiceModule } from '@omni/platform';
import { finder } from '@omni/proto';
import { finderHandlers } from './grpc/server';

export const finderService: ServiceModule = {
  name: 'finder',
  description: 'catalogue scans for unclaimed royalties',
  calls: [],
  consumes: [],
  produces: [],
  ports: ['documents'],
  async init(ctx) {
    const store = await ctx.ports.documents('finder');
    ctx.grpc.add(finder.FinderServiceService, finderHandlers());
    ctx.readiness('documents', () => store.healthy());
  },
};
