// The rules of the mails about releases and payments (domain/notifications.ts): one mail per transition,
// none for a stale or repeated event, one live mail per release however many stores go live.
import type { events } from '@omni/proto';
import { noticeMail } from '../src/domain/notification-mails';
import {
  emptyReleaseState,
  type Notice,
  type ReleaseMailState,
  releaseNotices,
  subscriptionNotices,
} from '../src/domain/notifications';

type Delivery = events.EventData<'delivery.updated'>;
let version = 0;
const delivery = (over: Partial<Delivery>): Delivery => ({
  releaseId: 'r1',
  ownerId: 'u1',
  target: null,
  jobKind: null,
  status: 'in_review',
  reason: null,
  releaseStatus: 'in_review',
  reachedStores: false,
  live: false,
  refusals: [],
  canResubmit: false,
  version: ++version,
  at: new Date().toISOString(),
  ...over,
});

/** Applies events in order, collecting every notice. */
function run(events: Delivery[], start: ReleaseMailState = emptyReleaseState()) {
  let state = start;
  const notices: Notice[] = [];
  for (const e of events) {
    const out = releaseNotices(state, e);
    state = out.next;
    notices.push(...out.notices);
  }
  return { state, notices };
}

const storeEvent = (target: string, status: string, releaseStatus: Delivery['releaseStatus'], extra = {}) =>
  delivery({ target, jobKind: 'ingest', status, releaseStatus, ...extra });

describe('release notices', () => {
  beforeEach(() => {
    version = 0;
  });

  it('mails approval once, and rejection with the reviewer reason', () => {
    const approved = delivery({ status: 'approved', releaseStatus: 'delivering' });
    const { notices } = run([delivery({}), approved, { ...approved, version: ++version }]);
    expect(notices).toEqual([{ kind: 'release_approved', releaseId: 'r1' }]);

    const rejected = run([
      delivery({ status: 'rejected', releaseStatus: 'rejected', reason: 'Blurry cover.' }),
    ]);
    expect(rejected.notices).toEqual([
      { kind: 'release_rejected', releaseId: 'r1', reason: 'Blurry cover.' },
    ]);
  });

  it('ignores an event not newer than the last one applied (redelivered or out of order)', () => {
    const first = run([delivery({ status: 'approved', releaseStatus: 'delivering', version: 5 })]);
    expect(first.notices).toHaveLength(1);
    const again = releaseNotices(
      first.state,
      delivery({ status: 'approved', releaseStatus: 'delivering', version: 5 }),
    );
    expect(again.notices).toEqual([]);
    expect(again.next).toBe(first.state);
    const older = releaseNotices(
      first.state,
      delivery({ status: 'rejected', releaseStatus: 'rejected', version: 3 }),
    );
    expect(older.notices).toEqual([]);
  });

  it('sends ONE live mail for 20 stores going live, naming the first store and the store count', () => {
    const start = { ...emptyReleaseState(), storeCount: 20 };
    const stores = Array.from({ length: 20 }, (_, i) => `store_${i}`);
    const { notices } = run(
      [
        delivery({ status: 'approved', releaseStatus: 'delivering' }),
        ...stores.map((s) => storeEvent(s, 'sent', 'delivering')),
        ...stores.map((s, i) => storeEvent(s, 'live', i === 19 ? 'live' : 'delivering')),
      ],
      start,
    );
    expect(notices).toEqual([
      { kind: 'release_approved', releaseId: 'r1' },
      { kind: 'release_live', releaseId: 'r1', store: 'store_0', storeCount: 20 },
    ]);
  });

  it('mails each store refusal with its reason, once per refusal', () => {
    const refused = storeEvent('spotify', 'rejected', 'delivering', { reason: 'Artwork has text.' });
    const { notices } = run([
      refused,
      { ...refused, version: ++version },
      storeEvent('tidal', 'live', 'delivering'),
    ]);
    expect(notices).toEqual([
      { kind: 'store_refused', releaseId: 'r1', store: 'spotify', reason: 'Artwork has text.' },
      { kind: 'release_live', releaseId: 'r1', store: 'tidal', storeCount: null },
    ]);
  });

  it('mails a takedown when the whole release is down, not for each store', () => {
    const { notices } = run([
      storeEvent('spotify', 'live', 'live'),
      delivery({ target: 'spotify', jobKind: 'takedown', status: 'taken_down', releaseStatus: 'live' }),
      delivery({ target: 'tidal', jobKind: 'takedown', status: 'taken_down', releaseStatus: 'taken_down' }),
      delivery({ target: 'tidal', jobKind: 'takedown', status: 'taken_down', releaseStatus: 'taken_down' }),
    ]);
    expect(notices.map((n) => n.kind)).toEqual(['release_live', 'release_taken_down']);
  });

  it('mails live again when a taken-down release is released and goes live once more', () => {
    const { notices } = run([
      storeEvent('spotify', 'live', 'live'),
      delivery({ target: 'spotify', jobKind: 'takedown', status: 'taken_down', releaseStatus: 'taken_down' }),
      storeEvent('spotify', 'queued', 'delivering'),
      storeEvent('spotify', 'live', 'live'),
      storeEvent('tidal', 'live', 'live'),
    ]);
    expect(notices.map((n) => n.kind)).toEqual(['release_live', 'release_taken_down', 'release_live']);
  });
});

describe('payment notices', () => {
  const sub = (status: events.EventData<'subscription.updated'>['status'], v: number) => ({
    accountId: 'u1',
    product: 'pro' as const,
    subscriptionId: 'sub_1',
    status,
    subscribed: true,
    cancelAtPeriodEnd: false,
    currentPeriodEnd: null,
    priceId: 'price_pro',
    version: v,
    updatedAt: new Date().toISOString(),
  });

  it('mails when the subscription becomes past_due, not while it stays so, and again after a recovery', () => {
    let state = subscriptionNotices(null, sub('active', 1)).next;
    const failed = subscriptionNotices(state, sub('past_due', 2));
    expect(failed.notices).toEqual([{ kind: 'payment_failed', product: 'pro', nextAttemptAt: undefined }]);
    state = failed.next;
    expect(subscriptionNotices(state, sub('past_due', 3)).notices).toEqual([]);
    expect(subscriptionNotices(state, sub('active', 1)).notices).toEqual([]); // older: stale
    state = subscriptionNotices(state, sub('active', 4)).next;
    expect(subscriptionNotices(state, sub('past_due', 5)).notices).toHaveLength(1);
  });

  it("reads billing's previousStatus for a subscription it has not seen, and says when the retry is", () => {
    const still = { ...sub('past_due', 7), previousStatus: 'past_due' as const };
    expect(subscriptionNotices(null, still).notices).toEqual([]);
    const first = {
      ...sub('past_due', 8),
      previousStatus: 'active' as const,
      lastPayment: {
        outcome: 'failed' as const,
        at: '2026-11-27T10:00:00Z',
        nextAttemptAt: '2026-12-03T10:00:00Z',
      },
    };
    const [notice] = subscriptionNotices(null, first).notices;
    expect(notice).toEqual({ kind: 'payment_failed', product: 'pro', nextAttemptAt: '2026-12-03T10:00:00Z' });
    expect(noticeMail('a@example.com', notice!, 'https://omni.example').text).toContain(
      'We will try again on 3 December 2026; until then your subscription stays active.',
    );
  });
});

describe('notice mails', () => {
  it('link to the release page or /app on the public URL, and to the settings', () => {
    const live = noticeMail(
      'a@example.com',
      { kind: 'release_live', releaseId: 'r-1', store: 'spotify', storeCount: 20 },
      'https://omni.example',
    );
    expect(live.subject).toBe('Your release is live');
    expect(live.text).toContain('live on Spotify, the first of its 20 stores');
    expect(live.text).toContain('https://omni.example/release/r-1');
    expect(live.text).toContain('https://omni.example/account');
    const paid = noticeMail(
      'a@example.com',
      { kind: 'payment_failed', product: 'pro' },
      'https://omni.example',
    );
    expect(paid.text).toContain('https://omni.example/app');
  });
});
