// Shared by the Finder suites: the release platform (real gateway, catalog, billing, finder; storage's
// file checks answered by the stand-in) with billing's webhook secret known, so a test makes an account a
// Finder subscriber exactly as Stripe would — a signed customer.subscription.created for its price.
import { randomUUID } from 'node:crypto';
import type { ServiceModule } from '@omni/platform';
import type { FinderResult, ScanJob } from '@omni/proto/api';
import { catalogService } from '@omni/service-catalog';
import { event, postEvent, subscriptionObject, TEST_WEBHOOK_SECRET } from '../support/stripe-events';
import { type ReleasePlatform, startReleasePlatform } from './releases.fixtures';

export const FINDER_PRICE = 'price_omni_finder_monthly';

export const startFinderPlatform = (
  options: { dataDir?: string; modules?: Parameters<typeof startReleasePlatform>[2] } = {},
) => startReleasePlatform(options.dataDir, { STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET }, options.modules);

export async function account(platform: ReleasePlatform) {
  const userId = randomUUID();
  return { userId, token: await platform.token(userId) };
}

/** Makes the account a Finder subscriber through billing's signed webhook (the server's own record). */
export async function subscribeToFinder(platform: ReleasePlatform, userId: string): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const sub = subscriptionObject({
    id: `sub_${randomUUID().replaceAll('-', '').slice(0, 18)}`,
    customer: `cus_${randomUUID().replaceAll('-', '').slice(0, 12)}`,
    accountId: userId,
    product: 'finder',
    status: 'active',
    cancelAtPeriodEnd: false,
    cancelAt: null,
    periodEnd: now + 30 * 86400,
    price: FINDER_PRICE,
  });
  const res = await postEvent(platform.url, event('customer.subscription.created', now, sub));
  if (res.status !== 200) throw new Error(`webhook ${res.status}: ${await res.text()}`);
}

export interface ScanAnswer {
  ok: boolean;
  data: { job_id: string; result: FinderResult | null; job: ScanJob };
}

/**
 * Catalog as it is, except that ListCatalogueTracks waits for `gate.open()`: a test can hold a scan in its
 * running state for as long as it needs to look at it (the finder under test is untouched).
 */
export function gatedCatalog() {
  // Open until a test closes it.
  let open: () => void = () => undefined;
  let opened = Promise.resolve();
  const gate = {
    open: () => open(),
    close: () => {
      opened = new Promise<void>((resolve) => (open = resolve));
    },
  };
  const module: ServiceModule = {
    ...catalogService,
    init(ctx) {
      const grpc = {
        ...ctx.grpc,
        add(definition: unknown, impl: Record<string, (req: unknown) => Promise<unknown>>) {
          const list = impl.listCatalogueTracks!;
          const wrapped = {
            ...impl,
            listCatalogueTracks: async (req: unknown) => {
              await opened;
              return list(req);
            },
          };
          (ctx.grpc.add as (d: unknown, i: unknown) => void)(definition, wrapped);
        },
      };
      return catalogService.init({ ...ctx, grpc } as typeof ctx);
    },
  };
  return { gate, module };
}
