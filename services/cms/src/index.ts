// cms: pages, assets, moderation and (later) contributor upload links. Owns its data; announces
// moderation decisions as events through its outbox.
import { Outbox, type ServiceModule } from '@omni/platform';
import { cms } from '@omni/proto';
import { cmsHandlers } from './grpc/server';
import { AssetsRepository } from './store/assets';
import { PagesRepository } from './store/pages';

export const cmsService: ServiceModule = {
  name: 'cms',
  description: 'pages, assets, moderation',
  calls: [],
  consumes: [],
  produces: ['asset.approved', 'asset.rejected'],
  ports: ['documents', 'events'],
  async init(ctx) {
    const store = await ctx.ports.documents('cms');
    const bus = await ctx.ports.events();
    await bus.ensureTopics(['asset.submitted', 'asset.approved', 'asset.rejected']);
    const pages = new PagesRepository(store);
    const assets = new AssetsRepository(store);
    await pages.seed();
    const outbox = new Outbox(store, bus, 'cms', ctx.logger);
    ctx.grpc.add(cms.CmsServiceService, cmsHandlers({ pages, assets, outbox }));
    ctx.readiness('documents', () => store.healthy());
    ctx.readiness('events', () => bus.healthy());
    ctx.onStarted(() => outbox.start());
    ctx.onStop(() => outbox.stop());
  },
};
