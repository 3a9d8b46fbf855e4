// BillingService over gRPC: adapts each request to its use case. Inputs are checked here too (the gateway
// checks first, but every service defends its own boundary).
import { invalidArgument, type UnaryImpl } from '@omni/platform';
import { billing } from '@omni/proto';
import type { BillingProduct } from '@omni/proto/api';
import { handleWebhook } from '../use-cases/apply-event';
import type { BillingContext } from '../use-cases/context';
import { getSubscription } from '../use-cases/get-subscription';
import { openPortal } from '../use-cases/open-portal';
import { startCheckout } from '../use-cases/start-checkout';

function productOf(product: billing.Product): BillingProduct {
  if (product === billing.Product.PRODUCT_PRO) return 'pro';
  if (product === billing.Product.PRODUCT_FINDER) return 'finder';
  throw invalidArgument('Say which product: Pro or Missing Money Finder.');
}

function accountOf(accountId: string): string {
  if (!accountId) throw invalidArgument('An account id is required.');
  return accountId;
}

export function billingHandlers(ctx: BillingContext): UnaryImpl<typeof billing.BillingServiceService> {
  return {
    async startCheckout(req) {
      const session = await startCheckout(ctx, {
        accountId: accountOf(req.accountId),
        email: req.email,
        product: productOf(req.product),
        priceId: req.priceId,
        returnBase: req.returnBaseUrl,
      });
      return { sessionId: session.id, url: session.url };
    },
    async openPortal(req) {
      return openPortal(ctx, {
        accountId: accountOf(req.accountId),
        product: productOf(req.product),
        returnBase: req.returnBaseUrl,
      });
    },
    async getSubscription(req) {
      return getSubscription(ctx, accountOf(req.accountId), productOf(req.product));
    },
    async handleWebhook(req) {
      return handleWebhook(ctx, Buffer.from(req.payload), req.signature);
    },
  };
}
