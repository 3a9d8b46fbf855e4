// identity: accounts, sessions, roles, profiles. The provider (Keycloak or the embedded issuer) holds
// users and signs tokens; this service adds the single-use links and their mails, profiles, the first
// admin, and announces new accounts (`user.registered`) through its outbox. It owns the mail port, so it
// also mails people when something happens to their release or a payment fails (events/).
import { createTokenVerifier, Outbox, REALM, type ServiceModule, type TokenVerifier } from '@omni/platform';
import { identity } from '@omni/proto';
import { seedAdmin } from './domain/seed-admin';
import { consumeNotificationEvents } from './events/notification-events';
import { identityHandlers } from './grpc/server';
import { mountMailbox } from './http/mailbox';
import { mountOidcRoutes } from './http/oidc';
import { describeIdentityProvider, openIdentityProvider } from './providers/identity/open';
import { describeMailer, openMailer } from './providers/mail/open';
import { Handoffs } from './store/handoffs';
import { LinkTokens } from './store/link-tokens';
import { Notifications } from './store/notifications';
import { Profiles } from './store/profiles';
import { createNotifier } from './use-cases/notify';

/** Built on first use: the embedded issuer's JWKS URL names identity's own HTTP port, bound after init. */
function lazyVerifier(make: () => TokenVerifier): TokenVerifier {
  let verifier: TokenVerifier | undefined;
  return {
    verify: (token) => {
      verifier ??= make();
      return verifier.verify(token);
    },
  };
}

export { INITIAL_ADMIN_FILE, initialAdminFile, SEEDED_ADMIN_EMAIL } from './domain/seed-admin';

export const identityService: ServiceModule = {
  name: 'identity',
  description: 'accounts, sessions, roles, profiles',
  calls: [],
  // Mails about a release's review and delivery, its store count, a failed payment, split invitations.
  consumes: ['delivery.updated', 'release.created', 'subscription.updated', 'split.invitation'],
  produces: ['user.registered'],
  ports: ['documents', 'events'],
  providers: { identity: describeIdentityProvider, mail: describeMailer },
  async init(ctx) {
    const { config, logger } = ctx;
    const store = await ctx.ports.documents('identity');
    const bus = await ctx.ports.events();
    await bus.ensureTopics(['user.registered']);
    const provider = await openIdentityProvider(config, store, logger);
    ctx.onStop(() => provider.close());
    const mailer = await openMailer(config, logger);
    ctx.onStop(() => mailer.close());
    const outbox = new Outbox(store, bus, 'identity', logger);
    const links = new LinkTokens(store);
    const profiles = new Profiles(store, outbox);

    // The embedded issuer's keys and discovery document, at Keycloak's paths (the gateway forwards /realms).
    if (provider.kind === 'embedded') mountOidcRoutes(ctx.http, store, REALM, provider.issuer);
    // The dev mailbox (embedded mail only; the gateway forwards /dev/mailbox here from this machine).
    mountMailbox(ctx.http, mailer.mailbox);

    const handlers = identityHandlers({
      provider,
      links,
      handoffs: new Handoffs(store),
      profiles,
      mailer,
      verifier: lazyVerifier(() =>
        createTokenVerifier({ jwksUrl: provider.jwksUrl, issuer: provider.issuer }),
      ),
      publicUrl: config.publicUrl,
      logger,
    });
    ctx.grpc.add(identity.IdentityServiceService, handlers);

    await seedAdmin({
      provider,
      dataDir: config.dataDir,
      configuredPassword: config.env.OMNI_ADMIN_PASSWORD,
      createAdmin: async (email, password) => {
        await handlers.createAdmin({ email, password, displayName: 'Omni admin' }, { metadata: {} });
      },
      logger,
    });

    const notifications = new Notifications(store);
    const notifier = createNotifier({
      notifications,
      provider,
      profiles,
      mailer,
      publicUrl: config.publicUrl,
      logger,
    });
    const consumers = await consumeNotificationEvents({ bus, store, notifications, notifier, logger });
    ctx.onStarted(() => notifier.start());
    ctx.onStop(async () => {
      await Promise.all(consumers.map((c) => c.close()));
      await notifier.stop();
    });

    ctx.readiness('documents', () => store.healthy());
    ctx.readiness('identity provider', () => provider.healthy());
    ctx.readiness('events', () => bus.healthy());
    ctx.onStarted(() => outbox.start());
    ctx.onStop(() => outbox.stop());
  },
};
