// The payouts part of RoyaltiesService: the caller's payouts page and what they change on it, a payee's
// statement (JSON, CSV or PDF; only their own unless an admin asks), an admin's "run now", and the rail's
// signed webhook events (the raw bytes the gateway forwarded).
import { invalidArgument, parseWith, permissionDenied, type UnaryImpl } from '@omni/platform';
import type { royalties } from '@omni/proto';
import { minimumBody, taxFormBody } from '@omni/proto/api';
import { applyEvent, verifiedEvent } from '../use-cases/payouts/apply-event';
import type { PayoutCaller, PayoutDeps } from '../use-cases/payouts/context';
import { myPayouts, setMinimum, setTaxForm, startOnboarding } from '../use-cases/payouts/payee';
import { retryDue, runPayouts } from '../use-cases/payouts/run';
import { payeeStatement, statementCsv, statementPdf } from '../use-cases/payouts/statements';

type Handlers = UnaryImpl<typeof royalties.RoyaltiesServiceService>;

const callerOf = (c: royalties.SplitCaller | undefined): PayoutCaller => {
  if (!c?.userId) throw invalidArgument('The caller is required.');
  return { userId: c.userId, email: c.email, isAdmin: c.isAdmin };
};
const bodyOf = (json: string) => {
  try {
    return JSON.parse(json || '{}') as unknown;
  } catch {
    throw invalidArgument('The request body is not JSON.');
  }
};

export function payoutHandlers(
  deps: PayoutDeps,
): Pick<Handlers, 'payoutCall' | 'getPayeeStatement' | 'handlePayoutWebhook'> {
  return {
    async payoutCall(req) {
      const caller = callerOf(req.caller);
      const answer = async (): Promise<unknown> => {
        switch (req.action) {
          case 'get':
            return myPayouts(deps, caller);
          case 'onboarding':
            return startOnboarding(deps, caller);
          case 'tax_form':
            return setTaxForm(deps, caller, parseWith(taxFormBody, bodyOf(req.bodyJson)));
          case 'minimum':
            return setMinimum(deps, caller, parseWith(minimumBody, bodyOf(req.bodyJson)));
          case 'run': {
            if (!caller.isAdmin) throw permissionDenied('Only an admin runs payouts.');
            const run = await runPayouts(deps);
            const retried = await retryDue(deps);
            return { ...run, amountCents: Number(run.amountCents), retried };
          }
          default:
            throw invalidArgument(`Unknown payouts action: ${req.action}`);
        }
      };
      return { json: JSON.stringify(await answer()) };
    },
    async getPayeeStatement(req) {
      const caller = callerOf(req.caller);
      const s = await payeeStatement(deps, caller, req.payeeId || caller.userId, req.period);
      const base = `omni-statement-${s.period}`;
      if (req.format === 'csv')
        return {
          contentType: 'text/csv; charset=utf-8',
          body: Buffer.from(statementCsv(s)),
          fileName: `${base}.csv`,
        };
      if (req.format === 'pdf') {
        const payee = await deps.payouts.payee(s.payeeId);
        const pdf = await statementPdf(s, payee?.taxForm?.legalName || payee?.email || s.payeeId);
        return { contentType: 'application/pdf', body: Buffer.from(pdf), fileName: `${base}.pdf` };
      }
      return {
        contentType: 'application/json',
        body: Buffer.from(JSON.stringify(s)),
        fileName: `${base}.json`,
      };
    },
    async handlePayoutWebhook(req) {
      const event = verifiedEvent(deps, Buffer.from(req.payload), req.signature);
      const { applied } = await applyEvent(deps, event);
      return { eventId: event.id, applied };
    },
  };
}
