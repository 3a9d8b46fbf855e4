// cms: pages, assets, moderation and contributor upload links. Owns its data; asks storage to judge and
// sign files; announces submissions and moderation decisions as events through its outbox.
import { Outbox, type ServiceModule } from '@omni/platform';
import { cms, storage } from '@omni/proto';
import { cmsHandlers } from './grpc/server';
import { AssetsRepository } from './store/assets';
import { PagesRepository } from './store/pages';
import { UploadLinksRepository } from './store/upload-links';

export const cmsService: ServiceModule = {
  name: 'cms',
  description: 'pages, assets, moderation, upload links',
  // Storage signs contributors' uploads, judges every file and signs media links.
  calls: ['storage'],
  consumes: [],
  produces: ['asset.submitted', 'asset.approved', 'asset.rejected'],
  ports: ['documents', 'events'],
  async init(ctx) {
    const store = await ctx.ports.documents('cms');
    const bus = await ctx.ports.events();
    await bus.ensureTopics(['asset.submitted', 'asset.approved', 'asset.rejected']);
    const pages = new PagesRepository(store);
    const assets = new AssetsRepository(store);
    const links = new UploadLinksRepository(store);
    await pages.seed();
    const outbox = new Outbox(store, bus, 'cms', ctx.logger);
    ctx.grpc.add(
      cms.CmsServiceService,
      cmsHandlers({
        pages,
        assets,
        links,
        outbox,
        storage: ctx.client('storage', storage.StorageServiceService),
        now: () => new Date(),
      }),
    );
    ctx.readiness('documents', () => store.healthy());
    ctx.readiness('events', () => bus.healthy());
    ctx.onStarted(() => outbox.start());
    ctx.onStop(() => outbox.stop());
  },
};
