// Customers and Checkout: what createCustomer / createCheckoutSession answer, and what the hosted
// checkout page does when a test card is submitted. A paid checkout creates the subscription and its
// first invoice and emits checkout.session.completed, customer.subscription.created and invoice.paid —
// the only way billing learns of it, as with Stripe.
import type { TransactionScope } from '@omni/platform';
import type Stripe from 'stripe';
import type { CheckoutInput } from '../port';
import { periodEnd } from './calendar';
import { AUTHENTICATION_FAILED, type CardForm, readCard } from './cards';
import type { SandboxContext } from './context';
import { newId } from './ids';
import type { CustomerDoc, IdempotencyDoc, InvoiceDoc, SessionDoc, SubscriptionDoc } from './records';
import { customerShape, invoiceShape, sessionShape, subscriptionShape } from './shapes';

/** Stripe keeps idempotency keys at least 24 hours. */
const IDEMPOTENCY_MS = 24 * 3600 * 1000;

/** The id an idempotency key already made (within 24 h), or a new one made by `create`. */
async function idempotent(
  scope: TransactionScope,
  key: string,
  create: () => Promise<string>,
): Promise<string> {
  const keys = scope.collection<IdempotencyDoc>('idempotency_keys');
  const seen = await keys.findById(key);
  if (seen && Date.now() - seen.created < IDEMPOTENCY_MS) return seen.result;
  const result = await create();
  await keys.updateOne({ _id: key }, { $set: { result, created: Date.now() } }, { upsert: true });
  return result;
}

export async function createCustomer(
  ctx: SandboxContext,
  input: { accountId: string; email: string },
  idempotencyKey: string,
): Promise<{ id: string }> {
  const id = await ctx.change((scope, _events, now) =>
    idempotent(scope, `customer:${idempotencyKey}`, async () => {
      const id = newId('cus');
      const object = customerShape({ id, email: input.email, accountId: input.accountId, created: now });
      await scope.collection<CustomerDoc>('customers').insertOne({ _id: id, object });
      return id;
    }),
  );
  return { id };
}

export async function createCheckoutSession(
  ctx: SandboxContext,
  input: CheckoutInput,
  idempotencyKey: string,
): Promise<{ id: string; url: string }> {
  const price = ctx.prices[input.priceId];
  // Stripe answers 400 "No such price"; billing checks the price first, so reaching here is our bug.
  if (!price) throw new Error(`No such price: '${input.priceId}'`);
  const id = await ctx.change((scope, _events, now) =>
    idempotent(scope, `checkout:${idempotencyKey}`, async () => {
      const customer = await scope.collection<CustomerDoc>('customers').findById(input.customerId);
      if (!customer) throw new Error(`No such customer: '${input.customerId}'`);
      const id = newId('cs_test');
      const metadata = { account_id: input.accountId, product: input.product };
      const object = sessionShape({
        metadata,
        id,
        url: checkoutUrl(ctx, id),
        customer: customer.object,
        accountId: input.accountId,
        price,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
        created: now,
      });
      await scope.collection<SessionDoc>('checkout_sessions').insertOne({
        _id: id,
        object,
        price: input.priceId,
        metadata,
      });
      return id;
    }),
  );
  return { id, url: checkoutUrl(ctx, id) };
}

export const checkoutUrl = (ctx: SandboxContext, id: string) =>
  `${ctx.publicUrl()}/billing-sandbox/checkout/${encodeURIComponent(id)}`;

/** The session as its page shows it; an open session past expires_at becomes expired, as Stripe's do. */
export async function readSession(ctx: SandboxContext, id: string): Promise<SessionDoc | null> {
  const sessions = ctx.store.collection<SessionDoc>('checkout_sessions');
  const doc = await sessions.findById(id);
  if (doc?.object.status !== 'open' || doc.object.expires_at > ctx.clock.now()) return doc;
  await sessions.updateOne({ _id: id, 'object.status': 'open' }, { $set: { 'object.status': 'expired' } });
  return sessions.findById(id);
}

export type PayOutcome =
  | { kind: 'paid'; redirect: string }
  | { kind: 'invalid'; message: string }
  | { kind: 'refused'; message: string }
  | { kind: 'authenticate' }
  | { kind: 'closed'; status: 'complete' | 'expired' }
  | { kind: 'missing' };

/** The checkout form's submit: checks the card, then pays, refuses or asks for 3-D Secure. */
export async function payCheckout(ctx: SandboxContext, id: string, form: CardForm): Promise<PayOutcome> {
  const session = await readSession(ctx, id);
  if (!session) return { kind: 'missing' };
  if (session.object.status !== 'open')
    return { kind: 'closed', status: session.object.status === 'complete' ? 'complete' : 'expired' };
  const read = readCard(form, ctx.clock.now());
  if ('error' in read) return { kind: read.notTestCard ? 'refused' : 'invalid', message: read.error };
  const b = read.card.behaviour;
  const last4 = read.card.number.slice(-4);
  if (b.kind === 'declined') return { kind: 'refused', message: b.message };
  if (b.kind === 'authenticate') {
    await ctx.store
      .collection<SessionDoc>('checkout_sessions')
      .updateOne({ _id: id }, { $set: { authenticating: { last4, renewals: 'succeed' } } });
    return { kind: 'authenticate' };
  }
  return complete(ctx, id, { last4, renewals: b.renewals });
}

/** The 3-D Secure page's answer. */
export async function authenticate(ctx: SandboxContext, id: string, passed: boolean): Promise<PayOutcome> {
  const session = await readSession(ctx, id);
  if (!session) return { kind: 'missing' };
  if (session.object.status !== 'open')
    return { kind: 'closed', status: session.object.status === 'complete' ? 'complete' : 'expired' };
  if (!session.authenticating) return { kind: 'invalid', message: 'Enter your card details to pay.' };
  if (!passed) {
    await ctx.store
      .collection<SessionDoc>('checkout_sessions')
      .updateOne({ _id: id }, { $unset: { authenticating: true } });
    return { kind: 'refused', message: AUTHENTICATION_FAILED };
  }
  return complete(ctx, id, session.authenticating);
}

async function complete(
  ctx: SandboxContext,
  id: string,
  card: { last4: string; renewals: 'succeed' | 'fail' },
): Promise<PayOutcome> {
  return ctx.change(async (scope, events, now) => {
    const sessions = scope.collection<SessionDoc>('checkout_sessions');
    const session = await sessions.findById(id);
    // A double click posts twice: only the first finds the session open, so one subscription is made.
    if (session?.object.status !== 'open')
      return { kind: 'closed', status: session?.object.status === 'expired' ? 'expired' : 'complete' };
    const { subscription, invoice } = await startSubscription(scope, ctx, session, now);
    const completed: Stripe.Checkout.Session = {
      ...session.object,
      status: 'complete',
      payment_status: 'paid',
      subscription: subscription.id,
      invoice: invoice.id,
      url: null,
    };
    await sessions.updateOne({ _id: id }, { $set: { object: completed }, $unset: { authenticating: true } });
    await scope
      .collection<CustomerDoc>('customers')
      .updateOne({ _id: session.object.customer as string }, { $set: { card } });
    // Stripe's order for a new subscription through Checkout.
    await events.emit(subscription.id, 'checkout.session.completed', completed);
    await events.emit(subscription.id, 'customer.subscription.created', subscription);
    await events.emit(subscription.id, 'invoice.paid', invoice);
    const redirect = (session.object.success_url ?? '').replaceAll('{CHECKOUT_SESSION_ID}', id);
    return { kind: 'paid', redirect };
  });
}

async function startSubscription(
  scope: TransactionScope,
  ctx: SandboxContext,
  session: SessionDoc,
  now: number,
): Promise<{ subscription: Stripe.Subscription; invoice: Stripe.Invoice }> {
  const priceId = session.price;
  const price = ctx.prices[priceId];
  if (!price)
    throw new Error(`No such price: '${priceId}' (removed from the configuration after checkout began)`);
  const customer = session.object.customer as string;
  const id = newId('sub');
  const end = periodEnd(now, price.interval, 1);
  const draft = subscriptionShape({
    id,
    itemId: newId('si'),
    customer,
    priceId,
    price,
    metadata: session.metadata,
    anchor: now,
    periodStart: now,
    periodEnd: end,
    created: now,
    latestInvoice: '',
  });
  const invoice = paidInvoice(
    invoiceShape({
      customer,
      subscription: draft,
      priceId,
      price,
      periodStart: now,
      periodEnd: end,
      reason: 'subscription_create',
      created: now,
    }),
    now,
  );
  const subscription: Stripe.Subscription = { ...draft, latest_invoice: invoice.id };
  await scope.collection<SubscriptionDoc>('subscriptions').insertOne({
    _id: id,
    customer,
    object: subscription,
    price: priceId,
    periods: 1,
    state: 'live',
  });
  await scope
    .collection<InvoiceDoc>('invoices')
    .insertOne({ _id: invoice.id, subscription: id, object: invoice });
  return { subscription, invoice };
}

export function paidInvoice(invoice: Stripe.Invoice, now: number): Stripe.Invoice {
  return {
    ...invoice,
    amount_paid: invoice.amount_due,
    amount_remaining: 0,
    attempt_count: invoice.attempt_count + 1,
    attempted: true,
    next_payment_attempt: null,
    status: 'paid',
    status_transitions: { ...invoice.status_transitions, paid_at: now },
  };
}
