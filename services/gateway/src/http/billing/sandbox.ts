// The embedded checkout sandbox's pages, clock and JSON API are billing's (PAYMENTS=embedded; Stripe hosts
// its own): the gateway forwards /billing-sandbox to billing's HTTP side, and only for callers on this
// machine (403 otherwise), the same rule as the dev mailbox: its pages subscribe anyone without paying and
// its clock ends every sandbox subscription, and only the gateway sees the real TCP peer.
import { type Logger, onlyThisMachine } from '@omni/platform';
import { BILLING_MESSAGES } from '@omni/proto/api';
import type { Express } from 'express';
import { forwardTo } from '../proxy';

export function forwardSandbox(http: Express, billing: () => string, logger: Logger): void {
  http.use(
    '/billing-sandbox',
    onlyThisMachine(BILLING_MESSAGES.sandboxLocalOnly),
    forwardTo(billing, logger, 'Checkout'),
  );
}
