// The boundary where Stripe's JSON becomes billing's PaymentEvent (providers/payments/stripe/events.ts):
// what each event type maps to, and the refusals that name the field.
import { LATEST_SECONDS, paymentEventOf, WebhookEventError } from '../src/providers/payments/stripe/events';

const T = 1_800_000_000;
const subscription = (over: Record<string, unknown> = {}) => ({
  id: 'sub_1',
  object: 'subscription',
  customer: { id: 'cus_1', object: 'customer' },
  status: 'past_due',
  cancel_at_period_end: false,
  cancel_at: null,
  items: { data: [{ current_period_end: T + 86_400, price: { id: 'price_pro' } }] },
  metadata: { account_id: 'acc_1', product: 'pro' },
  unknown_future_field: { anything: 1e308 },
  ...over,
});
const event = (type: string, object: unknown, previous?: unknown) => ({
  id: 'evt_1',
  object: 'event',
  type,
  created: T,
  livemode: false,
  data: { object, ...(previous ? { previous_attributes: previous } : {}) },
});

it('maps a subscription update to billing’s facts, its tracked previous attributes included', () => {
  expect(
    paymentEventOf(
      event('customer.subscription.updated', subscription(), { status: 'active', latest_invoice: 'in_0' }),
    ),
  ).toEqual({
    id: 'evt_1',
    type: 'customer.subscription.updated',
    created: T,
    livemode: false,
    kind: 'subscription',
    change: 'updated',
    subscription: {
      id: 'sub_1',
      customerId: 'cus_1',
      status: 'past_due',
      cancelAtPeriodEnd: false,
      cancelAt: null,
      currentPeriodEnd: new Date((T + 86_400) * 1000).toISOString(),
      priceId: 'price_pro',
      metadataAccountId: 'acc_1',
      metadataProduct: 'pro',
    },
    previous: { status: 'active' },
  });
});

it('maps checkout sessions and invoices, and leaves other types alone', () => {
  expect(
    paymentEventOf(
      event('checkout.session.completed', {
        id: 'cs_1',
        subscription: 'sub_1',
        customer: 'cus_1',
        client_reference_id: 'acc_1',
        metadata: { product: 'pro' },
      }),
    ),
  ).toMatchObject({
    kind: 'checkout',
    outcome: 'completed',
    sessionId: 'cs_1',
    subscriptionId: 'sub_1',
    customerId: 'cus_1',
    accountId: 'acc_1',
    metadataProduct: 'pro',
  });
  expect(
    paymentEventOf(
      event('invoice.payment_failed', {
        id: 'in_1',
        next_payment_attempt: T + 3 * 86_400,
        parent: { subscription_details: { subscription: 'sub_1' } },
      }),
    ),
  ).toMatchObject({
    kind: 'invoice',
    outcome: 'failed',
    invoiceId: 'in_1',
    subscriptionId: 'sub_1',
    nextAttemptAt: T + 3 * 86_400,
  });
  expect(paymentEventOf(event('customer.updated', { balance: 'not read' }))).toMatchObject({ kind: 'other' });
});

it.each([
  [
    'a period end past 2200',
    { items: { data: [{ current_period_end: LATEST_SECONDS + 1 }] } },
    /before 2200/,
  ],
  [
    'a cancel_at of Infinity',
    { cancel_at: Number.POSITIVE_INFINITY },
    /cancel_at must be a time in unix seconds/,
  ],
  ['a status billing does not know', { status: 'frozen' }, /status must be one of active/],
  ['no customer', { customer: null }, /data\.object\.customer/],
])('refuses %s, naming the field', (_what, over, reason) => {
  const run = () => paymentEventOf(event('customer.subscription.created', subscription(over)));
  expect(run).toThrow(WebhookEventError);
  expect(run).toThrow(reason);
});

it('says a body is not a Stripe event when the envelope is wrong', () => {
  expect(() => paymentEventOf({ hello: 'world' })).toThrow(
    /^The webhook body is not a Stripe event: event\.id/,
  );
});
