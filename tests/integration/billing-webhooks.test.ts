// Stripe's webhooks through the real surface: signed events POSTed raw to the gateway, verified and
// applied by billing over gRPC, read back through GET /api/billing/subscription. Signatures that are
// forged, stale or made for another body are refused and change nothing; an event is applied once; an
// older event never overwrites newer state; 200 events shuffled with duplicates converge to the
// provider's state.
import { randomUUID } from 'node:crypto';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import {
  checkoutCompleted,
  event,
  lifecycle,
  postEvent,
  type StripeEventJson,
  type SubState,
  seeded,
  sign,
  subscriptionObject,
  TEST_WEBHOOK_SECRET,
} from '../support/stripe-events';
import { signTestToken } from '../support/tokens';

const PRICE = 'price_omni_pro_monthly';
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET } });
});
afterAll(async () => {
  await platform?.close();
});

const now = () => Math.floor(Date.now() / 1000);

async function account() {
  const userId = randomUUID();
  const token = await signTestToken(await platform.ports.documents('identity'), { userId });
  return { userId, token };
}

async function subscriptionOf(token: string, product: 'pro' | 'finder' = 'pro') {
  const res = await fetch(
    `${platform.url}/api/billing/${product === 'finder' ? 'finder/' : ''}subscription`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  expect(res.status).toBe(200);
  return (await res.json()) as {
    subscribed: boolean;
    subscription_end: string | null;
    status: string;
    cancel_at_period_end: boolean;
  };
}

async function auditRows(eventId: string) {
  const store = await platform.ports.documents('billing');
  return store.collection('webhook_events').count({ _id: eventId });
}

function sub(userId: string, overrides: Partial<SubState> = {}): SubState {
  return {
    id: `sub_${randomUUID().slice(0, 18)}`,
    customer: `cus_${randomUUID().slice(0, 12)}`,
    accountId: userId,
    product: 'pro',
    status: 'active',
    cancelAtPeriodEnd: false,
    cancelAt: null,
    periodEnd: now() + 30 * 86400,
    price: PRICE,
    ...overrides,
  };
}

async function deliver(e: StripeEventJson) {
  const res = await postEvent(platform.url, e);
  expect(res.status).toBe(200);
  return (await res.json()) as { received: true; event_id: string; applied: boolean };
}

const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

describe('signatures', () => {
  it('refuses forged, stale, replayed-with-another-body and missing signatures with 400, changing nothing', async () => {
    const { userId, token } = await account();
    const e = event('customer.subscription.created', now(), subscriptionObject(sub(userId)));
    const payload = JSON.stringify(e);
    const other = JSON.stringify({ ...e, id: `${e.id}x` });
    const attempts: Array<[string, string | undefined, string]> = [
      ['forged', sign(payload, { secret: 'whsec_not_our_secret_at_all_0000' }), payload],
      ['stale', sign(payload, { timestamp: now() - 301 }), payload],
      ['other body', sign(payload), other],
      ['garbage header', 't=1,v1=00', payload],
    ];
    for (const [what, signature, body] of attempts) {
      const res = await postEvent(platform.url, body, signature);
      expect({ what, status: res.status }).toEqual({ what, status: 400 });
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('bad_signature');
      expect(error.message).toMatch(/signature/);
    }
    const missing = await fetch(`${platform.url}/api/billing/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: payload,
    });
    expect(missing.status).toBe(400);
    expect(await auditRows(e.id)).toBe(0);
    expect(await auditRows(`${e.id}x`)).toBe(0);
    expect(await subscriptionOf(token)).toMatchObject({ subscribed: false, subscription_end: null });
    // The same event correctly signed is accepted: the refusals above were about the signature alone.
    expect((await deliver(e)).applied).toBe(true);
    expect((await subscriptionOf(token)).subscribed).toBe(true);
  });

  it('answers an empty body 400 and a body over 1 MB 413, never a 5xx', async () => {
    const empty = await postEvent(platform.url, '', sign(''));
    expect(empty.status).toBe(400);
    const huge = 'x'.repeat(1024 * 1024 + 10);
    const tooLarge = await postEvent(platform.url, huge, sign(huge));
    expect(tooLarge.status).toBe(413);
  });

  it('tells a signed body that is not a Stripe event apart (400 with its own words)', async () => {
    const payload = JSON.stringify({ hello: 'world' });
    const res = await postEvent(platform.url, payload, sign(payload));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /not a Stripe event/,
    );
  });
});

describe('fields of correctly signed events (issue 21 §4.4)', () => {
  /** Posts a correctly signed body and returns the status and the error the sender reads. */
  async function refusal(payload: string) {
    const res = await postEvent(platform.url, payload, sign(payload));
    const body = (await res.json()) as { error?: { message: string } };
    return { status: res.status, message: body.error?.message ?? '' };
  }

  it('refuses times out of range or not whole seconds, unknown statuses and wrong kinds with 400 naming the field, changing nothing', async () => {
    const { userId, token } = await account();
    const s = sub(userId);
    const good = subscriptionObject(s);
    const withItem = (item: Record<string, unknown>) => ({
      ...good,
      items: { ...good.items, data: [{ ...good.items.data[0], ...item }] },
    });
    const cases: Array<[string, StripeEventJson, RegExp]> = [
      [
        'period end 1e308',
        event('customer.subscription.created', now(), withItem({ current_period_end: 1e308 })),
        /current_period_end must be a time before 2200-01-01/,
      ],
      [
        'period end negative',
        event('customer.subscription.created', now(), withItem({ current_period_end: -1 })),
        /current_period_end must be a time after 2000-01-01/,
      ],
      [
        'period end with a fraction of a second',
        event('customer.subscription.created', now(), withItem({ current_period_end: s.periodEnd + 0.5 })),
        /current_period_end must be whole unix seconds/,
      ],
      [
        'period end as text',
        event('customer.subscription.created', now(), withItem({ current_period_end: '2030-01-01' })),
        /current_period_end must be a time in unix seconds/,
      ],
      [
        'cancel_at 1e308',
        event('customer.subscription.updated', now(), { ...good, cancel_at: 1e308 }),
        /data\.object\.cancel_at must be a time before 2200-01-01/,
      ],
      [
        'event created 1e308',
        event('customer.subscription.created', 1e308, good),
        /event\.created must be a time before 2200-01-01/,
      ],
      [
        'an unknown status',
        event('customer.subscription.updated', now(), { ...good, status: 'bogus' }),
        /data\.object\.status must be one of active, trialing, past_due/,
      ],
      [
        'an unknown previous status',
        event('customer.subscription.updated', now(), good, { status: 'bogus' }),
        /previous_attributes\.status must be one of/,
      ],
      [
        'a subscription without an id',
        event('customer.subscription.created', now(), { ...good, id: 42 }),
        /data\.object\.id/,
      ],
      [
        'an invoice retry at 1e308',
        event('invoice.payment_failed', now(), {
          id: 'in_x',
          object: 'invoice',
          next_payment_attempt: 1e308,
          parent: { subscription_details: { subscription: s.id } },
        }),
        /next_payment_attempt must be a time before 2200-01-01/,
      ],
    ];
    for (const [what, e, reason] of cases) {
      const answer = await refusal(JSON.stringify(e));
      expect({ what, status: answer.status }).toEqual({ what, status: 400 });
      expect({ what, message: answer.message }).toEqual({ what, message: expect.stringMatching(reason) });
      expect(await auditRows(e.id)).toBe(0);
    }
    // JSON's 1e999 is Infinity once parsed: refused the same way.
    const infinite = JSON.stringify(event('customer.subscription.created', now(), good)).replace(
      `"current_period_end":${s.periodEnd}`,
      '"current_period_end":1e999',
    );
    expect(infinite).toContain('1e999');
    expect(await refusal(infinite)).toEqual({
      status: 400,
      message: expect.stringMatching(/current_period_end must be a time in unix seconds/),
    });
    expect(await subscriptionOf(token)).toMatchObject({ subscribed: false, subscription_end: null });

    // The same subscription with sane fields is applied: the refusals were about the fields alone.
    expect((await deliver(event('customer.subscription.created', now(), good))).applied).toBe(true);
    expect(await subscriptionOf(token)).toMatchObject({
      subscribed: true,
      subscription_end: isoOf(s.periodEnd),
    });
  });

  it('accepts event types billing does not act on, whatever their object holds', async () => {
    const e = event('customer.updated', now(), { id: 'cus_x', object: 'customer', balance: 1e308 });
    expect(await deliver(e)).toMatchObject({ received: true, applied: true });
  });
});

describe('idempotency and order', () => {
  it('applies the same event once: the second delivery answers applied=false and the audit has one row', async () => {
    const { userId, token } = await account();
    const e = event('customer.subscription.created', now(), subscriptionObject(sub(userId)));
    expect(await deliver(e)).toMatchObject({ received: true, event_id: e.id, applied: true });
    expect(await deliver(e)).toMatchObject({ received: true, event_id: e.id, applied: false });
    // Two more at once: still one row.
    const both = await Promise.all([deliver(e), deliver(e)]);
    expect(both.map((b) => b.applied)).toEqual([false, false]);
    expect(await auditRows(e.id)).toBe(1);
    expect((await subscriptionOf(token)).subscribed).toBe(true);
  });

  it('an `updated` that arrives before `created` is not overwritten by it', async () => {
    const { userId, token } = await account();
    const t = now();
    const s = sub(userId, { status: 'incomplete' });
    const created = event('customer.subscription.created', t, subscriptionObject(s));
    const active = { ...s, status: 'active' as const };
    const updated = event('customer.subscription.updated', t + 2, subscriptionObject(active), {
      status: 'incomplete',
    });
    await deliver(updated);
    const late = await deliver(created);
    expect(late.applied).toBe(true); // recorded and acknowledged, but stale
    expect(await subscriptionOf(token)).toMatchObject({ subscribed: true, status: 'active' });
  });

  it('created and updated in the same second (checkout) settle on the update, in either order', async () => {
    for (const order of ['updated first', 'created first']) {
      const { userId, token } = await account();
      const t = now();
      const s = sub(userId, { status: 'incomplete' });
      const created = event('customer.subscription.created', t, subscriptionObject(s));
      const updated = event(
        'customer.subscription.updated',
        t,
        subscriptionObject({ ...s, status: 'active' }),
        {
          status: 'incomplete',
        },
      );
      for (const e of order === 'updated first' ? [updated, created] : [created, updated]) await deliver(e);
      expect({ order, ...(await subscriptionOf(token)) }).toMatchObject({
        order,
        status: 'active',
        subscribed: true,
      });
    }
  });

  it('a `deleted` that arrives before an `updated` is final', async () => {
    const { userId, token } = await account();
    const t = now();
    const s = sub(userId);
    await deliver(event('customer.subscription.created', t, subscriptionObject(s)));
    const deleted = event(
      'customer.subscription.deleted',
      t + 5,
      subscriptionObject({ ...s, status: 'canceled' }),
    );
    const updated = event(
      'customer.subscription.updated',
      t + 3,
      subscriptionObject({ ...s, cancelAtPeriodEnd: true, cancelAt: s.periodEnd }),
      { cancel_at_period_end: false },
    );
    await deliver(deleted);
    await deliver(updated);
    // Even an update stamped later than the deletion cannot bring it back.
    await deliver(
      event('customer.subscription.updated', t + 9, subscriptionObject(s), { status: 'canceled' }),
    );
    expect(await subscriptionOf(token)).toMatchObject({ subscribed: false, status: 'canceled' });
  });

  it('an event for a subscription whose account is not known yet lands, and is linked by the checkout session', async () => {
    const { userId, token } = await account();
    const t = now();
    // No metadata and a customer billing has never seen: nothing ties it to an account yet.
    const s = sub(userId, { accountId: undefined });
    await deliver(
      event('customer.subscription.updated', t + 1, subscriptionObject(s), { status: 'incomplete' }),
    );
    expect((await subscriptionOf(token)).subscribed).toBe(false);
    await deliver(checkoutCompleted(t, s, userId));
    expect(await subscriptionOf(token)).toMatchObject({
      subscribed: true,
      subscription_end: isoOf(s.periodEnd),
    });
    // Later events for the same customer find the account through it.
    const next = { ...s, status: 'past_due' as const };
    await deliver(
      event('customer.subscription.updated', t + 2, subscriptionObject(next), { status: 'active' }),
    );
    expect(await subscriptionOf(token)).toMatchObject({ subscribed: true, status: 'past_due' });
  });

  it('200 events of 8 lifecycles, shuffled with duplicates, converge to the state the provider holds', async () => {
    const rand = seeded(12);
    const ends = ['deleted', 'past_due', 'cancel_at_period_end', 'active'] as const;
    const lives = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const who = await account();
        const life = lifecycle({
          accountId: who.userId,
          price: PRICE,
          start: now() - 86400 * 400 + i * 7,
          renewals: 6,
          end: ends[i % ends.length]!,
          rand,
        });
        return { who, life };
      }),
    );
    const unique = lives.flatMap((l) => l.life.events);
    const all: StripeEventJson[] = [...unique];
    while (all.length < 200) all.push(unique[Math.floor(rand() * unique.length)]!);
    for (let i = all.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [all[i], all[j]] = [all[j]!, all[i]!];
    }
    // Delivered a few at a time, as Stripe's parallel deliveries arrive.
    for (let i = 0; i < all.length; i += 4) await Promise.all(all.slice(i, i + 4).map(deliver));
    expect(all.length).toBeGreaterThanOrEqual(200);
    for (const { who, life } of lives) {
      const s = life.final;
      expect(await subscriptionOf(who.token)).toEqual({
        subscribed: ['active', 'trialing', 'past_due'].includes(s.status),
        subscription_end: isoOf(s.cancelAt ?? s.periodEnd),
        status: s.status,
        cancel_at_period_end: s.cancelAtPeriodEnd,
      });
    }
    const store = await platform.ports.documents('billing');
    const rows = await store.collection('webhook_events').count({ _id: { $in: unique.map((e) => e.id) } });
    expect(rows).toBe(unique.length);
  });
});

describe('subscription.updated', () => {
  it('announces each change once through the outbox, and nothing for a redelivery or a stale event', async () => {
    const { userId } = await account();
    const seen: Array<{
      data: {
        accountId: string;
        status: string;
        subscribed: boolean;
        cancelAtPeriodEnd: boolean;
        version: number;
      };
    }> = [];
    const bus = await platform.ports.events();
    const subscription = await bus.subscribe({
      groupId: `billing-test-${randomUUID()}`,
      topics: ['subscription.updated'],
      handler: async (message) => {
        const envelope = JSON.parse(message.value);
        if (envelope.data.accountId === userId) seen.push(envelope);
      },
    });
    try {
      const t = now();
      const s = sub(userId);
      const created = event('customer.subscription.created', t, subscriptionObject(s));
      const pastDue = event(
        'customer.subscription.updated',
        t + 2,
        subscriptionObject({ ...s, status: 'past_due' }),
        { status: 'active' },
      );
      const older = event(
        'customer.subscription.updated',
        t + 1,
        subscriptionObject({ ...s, cancelAtPeriodEnd: true }),
        { cancel_at_period_end: false },
      );
      for (const e of [created, created, pastDue, older, pastDue]) await deliver(e);
      const deadline = Date.now() + 5000;
      while (seen.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 300)); // room for a wrong third one to arrive
      expect(
        seen.map((e) => [e.data.status, e.data.subscribed, e.data.cancelAtPeriodEnd, e.data.version]),
      ).toEqual([
        ['active', true, false, t],
        ['past_due', true, false, t + 2],
      ]);
    } finally {
      await subscription.close();
    }
  });
});

describe('subscription reads', () => {
  it('refuses an anonymous caller', async () => {
    for (const path of ['subscription', 'finder/subscription']) {
      const res = await fetch(`${platform.url}/api/billing/${path}`);
      expect(res.status).toBe(401);
    }
  });

  it('free, subscribed, past_due, cancelled at period end (Pro until deleted), then free again', async () => {
    const { userId, token } = await account();
    expect(await subscriptionOf(token)).toEqual({
      subscribed: false,
      subscription_end: null,
      status: 'none',
      cancel_at_period_end: false,
    });
    const t = now();
    const s = sub(userId);
    await deliver(event('customer.subscription.created', t, subscriptionObject(s)));
    expect(await subscriptionOf(token)).toMatchObject({
      subscribed: true,
      subscription_end: isoOf(s.periodEnd),
    });
    // Finder is its own product: Pro does not make it subscribed.
    expect((await subscriptionOf(token, 'finder')).subscribed).toBe(false);

    await deliver(
      event('customer.subscription.updated', t + 1, subscriptionObject({ ...s, status: 'past_due' }), {
        status: 'active',
      }),
    );
    expect(await subscriptionOf(token)).toMatchObject({ subscribed: true, status: 'past_due' });

    const ending = { ...s, cancelAtPeriodEnd: true, cancelAt: s.periodEnd };
    await deliver(
      event('customer.subscription.updated', t + 2, subscriptionObject(ending), {
        status: 'past_due',
        cancel_at_period_end: false,
      }),
    );
    expect(await subscriptionOf(token)).toEqual({
      subscribed: true,
      subscription_end: isoOf(s.periodEnd),
      status: 'active',
      cancel_at_period_end: true,
    });
    await deliver(
      event('customer.subscription.deleted', t + 3, subscriptionObject({ ...ending, status: 'canceled' })),
    );
    expect(await subscriptionOf(token)).toMatchObject({ subscribed: false, status: 'canceled' });
  });

  it('reads Finder from its own price', async () => {
    const { userId, token } = await account();
    const s = sub(userId, { price: 'price_omni_finder_monthly', product: 'finder' });
    await deliver(event('customer.subscription.created', now(), subscriptionObject(s)));
    expect((await subscriptionOf(token, 'finder')).subscribed).toBe(true);
    expect((await subscriptionOf(token, 'pro')).subscribed).toBe(false);
  });
});
