// The account page's API (issue 21 §3.5, §3.11) and identity's mails about releases and payments (§3.4),
// through the real HTTP surface: gateway → gRPC → identity → embedded issuer, dev mailbox and event bus.
import { createHash } from 'node:crypto';
import { makeEnvelope } from '@omni/platform';
import type { events } from '@omni/proto';
import { startTestPlatform, type TestPlatform } from '../support/platform';

let platform: TestPlatform;
let ipCounter = 0;

interface Session {
  accessToken: string;
  refreshToken: string;
  user: { id: string; email: string; emailVerified: boolean };
  profile: { displayName: string };
}
interface Mail {
  subject: string;
  text: string;
  links: string[];
}

const freshIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const api = (path: string, init: RequestInit & { token?: string; json?: unknown; ip?: string } = {}) =>
  fetch(`${platform.url}${path}`, {
    ...init,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    headers: {
      ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      'x-forwarded-for': init.ip ?? freshIp(),
    },
  });
const post = (path: string, json: unknown, token?: string) => api(path, { method: 'POST', json, token });
const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { message: string; code: string } }).error;

let emailCounter = 0;
const newEmail = () => `account${++emailCounter}-${Date.now()}@example.com`;

async function mailsTo(email: string): Promise<Mail[]> {
  const res = await api(`/api/dev/mailbox?to=${encodeURIComponent(email)}`, { ip: '127.0.0.1' });
  return ((await res.json()) as { messages: Mail[] }).messages;
}
const paramOf = (mail: Mail | undefined, param: string) => {
  const link = mail?.links.find((l) => new URL(l).searchParams.has(param));
  if (!link) throw new Error(`no ${param} link`);
  return new URL(link).searchParams.get(param)!;
};

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 8000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function verifiedUser(password = 'secret-pass') {
  const email = newEmail();
  expect((await post('/api/auth/signup', { email, password })).status).toBe(201);
  const res = await post('/api/auth/verify', { token: paramOf((await mailsTo(email))[0], 'verify') });
  expect(res.status).toBe(200);
  return { email, password, session: (await res.json()) as Session };
}
const login = (email: string, password: string) => post('/api/auth/login', { email, password });

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.close());

describe('a password-reset link checked when its page opens (§3.11)', () => {
  it('says a fresh link works, and a used or expired one does not, before anything is typed', async () => {
    const { email } = await verifiedUser();
    await post('/api/auth/forgot-password', { email });
    const token = paramOf((await mailsTo(email))[0], 'reset');
    const fresh = await post('/api/auth/reset-password/check', { token });
    expect(fresh.status).toBe(200);
    // Checking does not spend it.
    expect((await post('/api/auth/reset-password/check', { token })).status).toBe(200);
    expect((await post('/api/auth/reset-password', { token, password: 'new-password' })).status).toBe(200);
    const used = await post('/api/auth/reset-password/check', { token });
    expect(used.status).toBe(400);
    expect(await errorOf(used)).toEqual({
      code: 'invalid_link',
      message: 'This reset link has expired or was already used. Request a new one below.',
    });

    await post('/api/auth/forgot-password', { email });
    const second = paramOf((await mailsTo(email))[0], 'reset');
    const store = await platform.ports.documents('identity');
    await store
      .collection('link_tokens')
      .updateOne(
        { _id: createHash('sha256').update(second).digest('hex') },
        { $set: { expiresAt: new Date(Date.now() - 1000).toISOString() } },
      );
    expect((await post('/api/auth/reset-password/check', { token: second })).status).toBe(400);
    expect((await post('/api/auth/reset-password/check', { token: 'x' })).status).toBe(400);
  });
});

describe('account settings (§3.5)', () => {
  it('saves the display name and the mail settings', async () => {
    const { session } = await verifiedUser();
    const res = await api('/api/me', {
      method: 'PATCH',
      token: session.accessToken,
      json: { displayName: 'Nova Reyes', mail: { releases: false } },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { profile: unknown }).profile).toEqual({
      displayName: 'Nova Reyes',
      mail: { releases: false, billing: true },
    });
    const bad = await api('/api/me', {
      method: 'PATCH',
      token: session.accessToken,
      json: { mail: { billing: 'no' } },
    });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toBe('Choose on or off for billing mails.');
  });

  it('changes the password only with the current one; other sessions end, this one goes on', async () => {
    const { email, password, session } = await verifiedUser();
    const other = (await (await login(email, password)).json()) as Session;
    const wrong = await post(
      '/api/me/password',
      { currentPassword: 'not-it', newPassword: 'next-pass' },
      session.accessToken,
    );
    expect(wrong.status).toBe(403);
    expect(await errorOf(wrong)).toEqual({
      code: 'wrong_password',
      message: 'Your current password is not right.',
    });
    const short = await post(
      '/api/me/password',
      { currentPassword: password, newPassword: '123' },
      session.accessToken,
    );
    expect(short.status).toBe(400);
    expect((await errorOf(short)).message).toBe('Password must be at least 6 characters');

    const res = await post(
      '/api/me/password',
      { currentPassword: password, newPassword: 'next-pass' },
      session.accessToken,
    );
    expect(res.status).toBe(200);
    const next = (await res.json()) as Session & { message: string };
    expect(next.message).toBe('Password changed. Your other sessions were signed out.');
    expect((await post('/api/auth/refresh', { refreshToken: other.refreshToken })).status).toBe(401);
    expect((await post('/api/auth/refresh', { refreshToken: next.refreshToken })).status).toBe(200);
    expect((await login(email, password)).status).toBe(401);
    expect((await login(email, 'next-pass')).status).toBe(200);
    expect((await mailsTo(email))[0]!.subject).toBe('Your Omni password was changed');
  });

  it('changes the email only after the link mailed to the new address is followed', async () => {
    const { email, password, session } = await verifiedUser();
    const taken = await verifiedUser();
    const wrong = await post(
      '/api/me/email',
      { email: newEmail(), password: 'nope-nope' },
      session.accessToken,
    );
    expect(wrong.status).toBe(403);
    const clash = await post('/api/me/email', { email: taken.email, password }, session.accessToken);
    expect(clash.status).toBe(409);
    expect((await errorOf(clash)).message).toBe('An account with this email already exists.');

    const target = newEmail();
    const asked = await post('/api/me/email', { email: target.toUpperCase(), password }, session.accessToken);
    expect(asked.status).toBe(202);
    expect(((await asked.json()) as { message: string }).message).toBe(
      `We sent a link to ${target}. Your email changes when you follow it.`,
    );
    // Nothing changed yet.
    expect((await login(email, password)).status).toBe(200);
    expect((await login(target, password)).status).toBe(401);

    const [mail] = await mailsTo(target);
    expect(mail!.links[0]).toMatch(/^http:\/\/localhost:\d+\/account\?email-change=/);
    const token = paramOf(mail, 'email-change');
    const done = await post('/api/auth/email-change/confirm', { token });
    expect(done.status).toBe(200);
    const after = (await done.json()) as Session & { message: string };
    expect(after.user).toMatchObject({ id: session.user.id, email: target, emailVerified: true });
    expect(after.message).toBe(`Your email is now ${target}.`);
    expect((await login(target, password)).status).toBe(200);
    expect((await login(email, password)).status).toBe(401);
    expect((await mailsTo(email))[0]!.subject).toBe('Your Omni email was changed');
    expect((await post('/api/auth/email-change/confirm', { token })).status).toBe(400);
  });

  it('deletes the account with the password and DELETE typed, saying first what happens', async () => {
    const { email, password, session } = await verifiedUser();
    const preview = await api('/api/me/deletion', { token: session.accessToken });
    expect(preview.status).toBe(200);
    expect(await preview.json()).toEqual({ releases: 0, inStores: 0, blockers: [] });

    const unconfirmed = await api('/api/me', {
      method: 'DELETE',
      token: session.accessToken,
      json: { password, confirmation: 'delete me' },
    });
    expect(unconfirmed.status).toBe(400);
    expect((await errorOf(unconfirmed)).message).toBe('Type DELETE to confirm.');
    const wrong = await api('/api/me', {
      method: 'DELETE',
      token: session.accessToken,
      json: { password: 'not-mine', confirmation: 'DELETE' },
    });
    expect(wrong.status).toBe(403);

    const res = await api('/api/me', {
      method: 'DELETE',
      token: session.accessToken,
      json: { password, confirmation: 'DELETE' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Your account is deleted.', takenDown: 0 });
    expect((await login(email, password)).status).toBe(401);
    expect((await post('/api/auth/refresh', { refreshToken: session.refreshToken })).status).toBe(401);
    expect((await api('/api/me', { token: session.accessToken })).status).toBe(401);
    // The address is free again.
    expect((await post('/api/auth/signup', { email, password })).status).toBe(201);
  });
});

describe('mails about releases and payments (§3.4)', () => {
  let version = 0;
  async function publish<T extends 'delivery.updated' | 'subscription.updated' | 'release.created'>(
    type: T,
    key: string,
    data: events.EventInput<T>,
  ) {
    const envelope = makeEnvelope(type, 'test', key, data);
    const bus = await platform.ports.events();
    await bus.publish(type, [{ key, value: JSON.stringify(envelope) }]);
    return envelope;
  }
  const delivery = (
    releaseId: string,
    ownerId: string,
    over: Partial<events.EventInput<'delivery.updated'>>,
  ) =>
    publish('delivery.updated', releaseId, {
      releaseId,
      ownerId,
      target: null,
      jobKind: null,
      status: 'in_review',
      reason: null,
      releaseStatus: 'in_review',
      version: ++version,
      at: new Date().toISOString(),
      ...over,
    });
  const subjects = async (email: string) => (await mailsTo(email)).map((m) => m.subject);

  it('mails approval, rejection with its reason, one live mail for many stores, a refusal and a takedown', async () => {
    const { email, session } = await verifiedUser();
    const owner = session.user.id;
    const releaseId = crypto.randomUUID();
    await publish('release.created', releaseId, {
      releaseId,
      ownerId: owner,
      artistId: 'artist-1',
      upc: '899999000001',
      trackIds: ['t1'],
      isrcs: ['QZQDU2500001'],
      stores: ['spotify', 'apple_music', 'tidal'],
      createdAt: new Date().toISOString(),
    });
    await delivery(releaseId, owner, {
      status: 'rejected',
      releaseStatus: 'rejected',
      reason: 'The cover is blurry.',
    });
    const rejected = await waitFor('the rejection mail', async () =>
      (await mailsTo(email)).find((m) => m.subject === 'Your release needs changes'),
    );
    expect(rejected.text).toContain('The reviewer wrote: "The cover is blurry."');
    expect(rejected.links[0]).toBe(`${platform.config.publicUrl}/release/${releaseId}`);

    const approved = await delivery(releaseId, owner, { status: 'approved', releaseStatus: 'delivering' });
    await waitFor('the approval mail', async () =>
      (await subjects(email)).includes('Your release was approved') ? true : undefined,
    );
    // The same event delivered again (at-least-once bus): no second mail.
    const bus = await platform.ports.events();
    await bus.publish('delivery.updated', [{ key: releaseId, value: JSON.stringify(approved) }]);

    for (const store of ['spotify', 'apple_music', 'tidal'])
      await delivery(releaseId, owner, {
        target: store,
        jobKind: 'ingest',
        status: 'live',
        releaseStatus: store === 'tidal' ? 'live' : 'delivering',
      });
    const live = await waitFor('the live mail', async () =>
      (await mailsTo(email)).find((m) => m.subject === 'Your release is live'),
    );
    expect(live.text).toContain('live on Spotify, the first of its 3 stores');

    await delivery(releaseId, owner, {
      target: 'deezer',
      jobKind: 'ingest',
      status: 'rejected',
      releaseStatus: 'live',
      reason: 'Duplicate of an existing release.',
    });
    await delivery(releaseId, owner, {
      target: null,
      jobKind: null,
      status: 'approved',
      releaseStatus: 'taken_down',
    });
    await waitFor('the takedown mail', async () =>
      (await subjects(email)).includes('Your release was taken down') ? true : undefined,
    );
    // Let a second (wrong) mail have its chance to arrive before counting.
    await new Promise((r) => setTimeout(r, 500));
    expect((await subjects(email)).sort()).toEqual(
      [
        'Confirm your email for Omni',
        'Deezer refused your release',
        'Your release is live',
        'Your release needs changes',
        'Your release was approved',
        'Your release was taken down',
      ].sort(),
    );
  });

  it('mails a failed payment once, on the change to past_due, unless billing mails are turned off', async () => {
    const { email, session } = await verifiedUser();
    const sub = (status: 'active' | 'past_due', v: number) =>
      publish('subscription.updated', session.user.id, {
        accountId: session.user.id,
        product: 'pro',
        subscriptionId: `sub_${session.user.id}`,
        status,
        subscribed: true,
        cancelAtPeriodEnd: false,
        currentPeriodEnd: new Date(Date.now() + 86400_000).toISOString(),
        priceId: 'price_pro_monthly',
        version: v,
        updatedAt: new Date().toISOString(),
      });
    await sub('active', 1);
    await sub('past_due', 2);
    await sub('past_due', 3);
    const failed = await waitFor('the payment mail', async () =>
      (await mailsTo(email)).find((m) => m.subject === 'Your Pro payment failed'),
    );
    expect(failed.links[0]).toBe(`${platform.config.publicUrl}/app`);

    await api('/api/me', { method: 'PATCH', token: session.accessToken, json: { mail: { billing: false } } });
    await sub('active', 4);
    await sub('past_due', 5);
    const store = await platform.ports.documents('identity');
    await waitFor('the second notice to be skipped', async () => {
      const skipped = await store
        .collection('notifications')
        .find({ userId: session.user.id, status: 'skipped' });
      return skipped.length === 1 ? true : undefined;
    });
    expect((await subjects(email)).filter((s) => s === 'Your Pro payment failed')).toHaveLength(1);
  });

  it('always sends security mails, whatever the settings', async () => {
    const { email, session } = await verifiedUser();
    await api('/api/me', {
      method: 'PATCH',
      token: session.accessToken,
      json: { mail: { releases: false, billing: false } },
    });
    await post('/api/auth/forgot-password', { email });
    expect((await mailsTo(email))[0]!.subject).toBe('Reset your Omni password');
  });
});
