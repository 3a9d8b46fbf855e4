// cms: pages, assets, moderation and contributor upload links. Owns its data; asks storage to judge and
// sign files; announces submissions and moderation decisions as events through its outbox.
import { Outbox, type ServiceModule } from '@omni/platform';
import { cms, storage } from '@omni/proto';
import { cmsHandlers } from './grpc/server';
import { AssetsRepository } from './store/assets';
import { LinkUploadsRepository } from './store/link-uploads';
import { PagesRepository } from './store/pages';
import { UploadLinksRepository } from './store/upload-links';
import type { CmsContext } from './use-cases/context';
import { startLinkUploadSweeper } from './use-cases/link-upload-cleanup';

export const cmsService: ServiceModule = {
  name: 'cms',
  description: 'pages, assets, moderation, upload links',
  // Storage signs contributors' uploads, judges every file, signs media links and deletes contributor
  // files nothing refers to.
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
    const cmsCtx: CmsContext = {
      pages,
      assets,
      links,
      linkUploads: new LinkUploadsRepository(store),
      outbox,
      storage: ctx.client('storage', storage.StorageServiceService),
      now: () => new Date(),
    };
    ctx.grpc.add(cms.CmsServiceService, cmsHandlers(cmsCtx));
    // Contributor files never submitted are deleted once their signed URL has lapsed (and an hour more).
    let stopSweeper = () => {};
    ctx.onStarted(() => {
      stopSweeper = startLinkUploadSweeper(cmsCtx, (err) =>
        ctx.logger.warn({ err }, 'contributor upload cleanup failed; the next pass retries'),
      );
    });
    ctx.onStop(() => stopSweeper());
    ctx.readiness('documents', () => store.healthy());
    ctx.readiness('events', () => bus.healthy());
    ctx.onStarted(() => outbox.start());
    ctx.onStop(() => outbox.stop());
  },
};
