// gateway: the only public HTTP entry. REST/JSON under /api, the web app, and (embedded mode) the signed
// object URLs and the issuer's endpoints forwarded to storage and identity. Talks gRPC to every service.
import {
  createGuards,
  issuerFor,
  keycloakUrl,
  REALM,
  type ServiceModule,
  tokenVerifierFor,
} from '@omni/platform';
import { billing, catalog, cms, delivery, finder, health, identity, royalties, storage } from '@omni/proto';
import { billingRoutes } from './http/billing';
import { forwardSandbox } from './http/billing/sandbox';
import { dashboardRoutes } from './http/catalog/dashboard';
import { deliveryRoutes, loadReleaseDelivery } from './http/catalog/deliveries';
import { DeliveryStreams, followDeliveryUpdates } from './http/catalog/delivery-stream';
import { platformRoutes } from './http/catalog/platforms';
import { releaseRoutes, songRoutes } from './http/catalog/releases';
import { adminRoutes } from './http/cms/admin';
import { contributorRoutes } from './http/cms/contributor';
import { contributorLimiter } from './http/cms/contributor-rate-limits';
import { cachedAssetsFastPath, publicRoutes } from './http/cms/public';
import { invalidateOnModeration, PublicCache } from './http/cms/public-cache';
import { adminDeliveryRoutes } from './http/delivery/admin-deliveries';
import { adminReleaseRoutes } from './http/delivery/admin-releases';
import { masterAudioRoutes } from './http/delivery/master-audio';
import { rightsProofRoutes } from './http/delivery/rights-proofs';
import { finderRoutes } from './http/finder/scans';
import { mountHealth } from './http/health';
import { authRoutes } from './http/identity/auth';
import { forwardMailbox } from './http/identity/mailbox';
import { meRoutes } from './http/identity/me';
import { forwardTo } from './http/proxy';
import { analyticsRoutes } from './http/royalties/analytics';
import { forwardPayoutSandbox, payoutRoutes } from './http/royalties/payouts';
import { splitRoutes } from './http/royalties/splits';
import { statementRoutes } from './http/royalties/statements';
import { uploadRoutes } from './http/storage/uploads';
import { defaultFrontendsDir, mountFrontends } from './http/web/frontends';
import { rateLimitCounters } from './providers/rate-limit/counters';
import { describeRateLimits } from './providers/rate-limit/describe';

export const gatewayService: ServiceModule = {
  name: 'gateway',
  description: 'public HTTP API, web app, auth check',
  public: true,
  // The API's services by gRPC, storage's /objects and identity's /realms by HTTP, and every service's
  // gRPC health for /healthz.
  calls: ['identity', 'catalog', 'storage', 'delivery', 'billing', 'cms', 'finder', 'royalties'],
  consumes: ['asset.approved', 'asset.rejected', 'delivery.updated', 'delivery.progress'],
  produces: [],
  ports: ['documents', 'events'],
  providers: { 'rate limits': describeRateLimits },
  async init(ctx) {
    const { http, config, logger } = ctx;
    const cmsClient = ctx.client('cms', cms.CmsServiceService);
    const identityClient = ctx.client('identity', identity.IdentityServiceService);
    const keycloak = keycloakUrl(config);
    const issuer = issuerFor(config);
    const guards = createGuards(tokenVerifierFor(config));

    mountHealth(http, (service) => ctx.client(service, health.HealthService));
    // First under /api: its webhook takes no bearer and its raw body must reach it untouched.
    http.use(
      '/api/billing',
      billingRoutes(ctx.client('billing', billing.BillingServiceService), guards, config),
    );
    const publicCache = new PublicCache();
    const invalidation = await invalidateOnModeration(await ctx.ports.events(), publicCache, logger);
    ctx.onStop(() => invalidation.close());
    http.use('/api', publicRoutes(cmsClient, publicCache));
    ctx.fastPath(cachedAssetsFastPath(publicCache));
    const storageClient = ctx.client('storage', storage.StorageServiceService);
    http.use(
      '/api/admin',
      adminRoutes({
        cms: cmsClient,
        storage: storageClient,
        guards,
        publicUrl: config.publicUrl,
        onModerated: () => publicCache.clear(),
      }),
    );
    // One counter store for every rate limit (shared by the replicas with MongoDB).
    const limits = rateLimitCounters(ctx);
    http.use('/api/contributor', contributorRoutes(cmsClient, guards, contributorLimiter(limits)));
    http.use(
      '/api/auth',
      authRoutes(identityClient, {
        env: config.env,
        realm: REALM,
        publicUrl: config.publicUrl,
        keycloakPublicUrl: keycloak ? issuer.replace(/\/realms\/[^/]+$/, '') : undefined,
        limits,
      }),
    );
    const catalogClient = ctx.client('catalog', catalog.CatalogServiceService);
    const deliveryClient = ctx.client('delivery', delivery.DeliveryServiceService);
    const royaltiesClient = ctx.client('royalties', royalties.RoyaltiesServiceService);
    // Before /api/me and /api/releases: /api/me/earnings and the releases' splits are royalties'.
    http.use('/api', splitRoutes(royaltiesClient, guards));
    // Payouts: /api/me/payouts, its statements, the admin's run, and Stripe Connect's webhook (raw body).
    http.use('/api', payoutRoutes(royaltiesClient, guards));
    http.use(
      '/api/me',
      meRoutes(identityClient, guards, {
        catalog: catalogClient,
        delivery: deliveryClient,
        billing: ctx.client('billing', billing.BillingServiceService),
      }),
    );
    http.use('/api', uploadRoutes(ctx, guards));
    http.use('/api/platforms', platformRoutes(catalogClient));
    const streams = new DeliveryStreams(loadReleaseDelivery(deliveryClient), logger);
    const following = await followDeliveryUpdates(await ctx.ports.events(), streams, logger);
    // Open streams would hold the server's close for up to their 10 minutes.
    ctx.onDraining(() => streams.close());
    ctx.onStop(() => following.close());
    http.use('/api/releases', deliveryRoutes(catalogClient, deliveryClient, streams, guards));
    http.use('/api/releases', releaseRoutes(catalogClient, deliveryClient, guards, logger));
    http.use(
      '/api',
      rightsProofRoutes(
        catalogClient,
        deliveryClient,
        ctx.client('storage', storage.StorageServiceService),
        guards,
      ),
    );
    http.use(
      '/api/admin',
      masterAudioRoutes(catalogClient, ctx.client('storage', storage.StorageServiceService), guards),
    );
    http.use('/api/admin', adminReleaseRoutes(catalogClient, deliveryClient, guards));
    http.use('/api/admin', adminDeliveryRoutes(deliveryClient, guards));
    http.use('/api/songs', songRoutes(catalogClient, guards));
    http.use('/api/dashboard', dashboardRoutes(catalogClient, royaltiesClient, guards));
    http.use('/api/analytics', analyticsRoutes(royaltiesClient, guards));
    http.use(
      '/api/admin',
      statementRoutes(royaltiesClient, deliveryClient, guards, {
        royaltiesHttp: () => config.httpUrl('royalties'),
        logger,
      }),
    );
    http.use('/api/finder', finderRoutes(ctx.client('finder', finder.FinderServiceService), guards, limits));
    forwardMailbox(http, () => config.httpUrl('identity'), logger);
    http.use(
      '/objects',
      forwardTo(() => config.httpUrl('storage'), logger),
    );
    // The embedded checkout sandbox's hosted pages are billing's (PAYMENTS=embedded); Stripe hosts its own.
    if (config.env.PAYMENTS === 'embedded') forwardSandbox(http, () => config.httpUrl('billing'), logger);
    // The payout sandbox's hosted onboarding and clock are royalties' (PAYOUTS unset or embedded, never in production).
    if ((config.env.PAYOUTS ?? (config.env.NODE_ENV === 'production' ? 'stripe' : 'embedded')) === 'embedded')
      forwardPayoutSandbox(http, () => config.httpUrl('royalties'), logger);
    if (!keycloak)
      http.use(
        '/realms',
        forwardTo(() => config.httpUrl('identity'), logger, 'Sign-in'),
      );
    ctx.fastPath(
      mountFrontends(http, process.env.FRONTENDS_DIR ?? defaultFrontendsDir(), {
        logger,
        policy: ctx.securityHeaders['content-security-policy'],
      }),
    );
    ctx.readiness('cms', async () => {
      await cmsClient.waitForReady(1000);
      return true;
    });
  },
};
