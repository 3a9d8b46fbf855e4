// The auth API through the real HTTP surface (gateway → gRPC → identity → embedded issuer and dev
// mailbox): sign-up, verification, sessions, links, profile, guards and rate limits. Every refusal must be
// a clear 4xx with the contract's message, never a 5xx.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { signTestToken } from '../support/tokens';

let platform: TestPlatform;
let ipCounter = 0;

interface Session {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresIn: number;
  user: { id: string; email: string; emailVerified: boolean; roles: string[] };
  profile: { displayName: string };
}
interface ErrorBody {
  error: { message: string; code: string };
}

/** Each test speaks from its own client IP (the gateway trusts X-Forwarded-For from loopback). */
const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

const api = (path: string, init: RequestInit & { token?: string; ip?: string; json?: unknown } = {}) =>
  fetch(`${platform.url}${path}`, {
    ...init,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    headers: {
      ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      'x-forwarded-for': init.ip ?? freshIp(),
      ...(init.headers as Record<string, string>),
    },
  });
const post = (path: string, json: unknown, ip?: string) => api(path, { method: 'POST', json, ip });
const errorOf = async (res: Response) => ((await res.json()) as ErrorBody).error;

let emailCounter = 0;
const newEmail = () => `artist${++emailCounter}-${Date.now()}@example.com`;

async function mailsTo(email: string) {
  // Read by the developer on this machine, not by the client a test plays (the mailbox answers loopback only).
  const res = await api(`/api/dev/mailbox?to=${encodeURIComponent(email)}`, { ip: '127.0.0.1' });
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: { subject: string; text: string; links: string[] }[] }).messages;
}

async function linkParam(email: string, param: string, nth = 0): Promise<string> {
  const mails = (await mailsTo(email)).filter((m) => m.links.some((l) => new URL(l).searchParams.has(param)));
  const link = mails[nth]?.links.find((l) => new URL(l).searchParams.has(param));
  if (!link) throw new Error(`no ${param} link mailed to ${email}`);
  return new URL(link).searchParams.get(param)!;
}

async function signUp(email = newEmail(), password = 'secret-pass') {
  const res = await post('/api/auth/signup', { email, password });
  expect(res.status).toBe(201);
  return { email, password };
}

async function verifiedUser() {
  const { email, password } = await signUp();
  const res = await post('/api/auth/verify', { token: await linkParam(email, 'verify') });
  expect(res.status).toBe(200);
  return { email, password, session: (await res.json()) as Session };
}

async function login(email: string, password: string) {
  return post('/api/auth/login', { email, password });
}

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.close());

describe('sign-up, verification and sign-in', () => {
  it('signs up, mails a verification link, verifies and signs in', async () => {
    const email = newEmail();
    const res = await post('/api/auth/signup', {
      email: `  ${email.toUpperCase()} `,
      password: 'secret-pass',
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { user: Session['user']; message: string };
    expect(body.message).toBe('Account created!');
    expect(body.user).toMatchObject({ email, emailVerified: false, roles: ['artist'] });

    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.links[0]).toMatch(/^http:\/\/localhost:\d+\/login\?verify=[A-Za-z0-9_-]{40,}$/);

    const verified = await post('/api/auth/verify', { token: await linkParam(email, 'verify') });
    expect(verified.status).toBe(200);
    const session = (await verified.json()) as Session;
    expect(session.user).toMatchObject({ email, emailVerified: true, roles: ['artist'] });
    expect(session.expiresIn).toBe(300);
    expect(session.refreshExpiresIn).toBeGreaterThan(300);
    expect(session.profile).toEqual({ displayName: '' });

    const signedIn = await login(email, 'secret-pass');
    expect(signedIn.status).toBe(200);
    const s2 = (await signedIn.json()) as Session;
    expect(s2.user.id).toBe(session.user.id);

    const me = await api('/api/me', { token: s2.accessToken });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({
      user: { id: session.user.id, email, emailVerified: true, roles: ['artist'] },
      profile: { displayName: '', mail: { releases: true, billing: true } },
    });
  });

  it('refuses an unconfirmed email with 403 email_not_confirmed, and resend mails a new link', async () => {
    const { email, password } = await signUp();
    const res = await login(email, password);
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toEqual({ code: 'email_not_confirmed', message: 'Email not confirmed' });

    const resend = await post('/api/auth/resend', { email });
    expect(resend.status).toBe(200);
    expect(await resend.json()).toEqual({ message: 'Verification sent' });
    expect(await mailsTo(email)).toHaveLength(2);
    // The newest link works.
    expect((await post('/api/auth/verify', { token: await linkParam(email, 'verify', 0) })).status).toBe(200);
    expect((await login(email, password)).status).toBe(200);
  });

  it('answers resend the same for an unknown email and sends nothing', async () => {
    const email = newEmail();
    const res = await post('/api/auth/resend', { email });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Verification sent' });
    expect(await mailsTo(email)).toHaveLength(0);
  });

  it('refuses a wrong password and an unknown email with the same 401', async () => {
    const { email } = await verifiedUser();
    for (const res of [await login(email, 'wrong-password'), await login(newEmail(), 'whatever-pass')]) {
      expect(res.status).toBe(401);
      expect(await errorOf(res)).toEqual({
        code: 'invalid_credentials',
        message: 'Invalid email or password.',
      });
    }
  });

  it('refuses a second account for one email with 409', async () => {
    const { email } = await signUp();
    const res = await post('/api/auth/signup', { email, password: 'another-pass' });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe('An account with this email already exists.');
  });

  it('validates with the spec messages', async () => {
    const cases: [string, unknown, string][] = [
      ['/api/auth/signup', { email: 'not-an-email', password: 'secret-pass' }, 'Invalid email address'],
      ['/api/auth/signup', { password: 'secret-pass' }, 'Invalid email address'],
      [
        '/api/auth/signup',
        { email: newEmail(), password: '12345' },
        'Password must be at least 6 characters',
      ],
      ['/api/auth/signup', { email: newEmail() }, 'Password must be at least 6 characters'],
      ['/api/auth/login', { email: 'nope', password: 'secret-pass' }, 'Invalid email address'],
      ['/api/auth/login', { email: newEmail(), password: '123' }, 'Password must be at least 6 characters'],
      ['/api/auth/resend', { email: '' }, 'Invalid email address'],
      ['/api/auth/magic-link', { email: 'x@' }, 'Invalid email address'],
      ['/api/auth/forgot-password', {}, 'Invalid email address'],
      [
        '/api/auth/reset-password',
        { token: 'a'.repeat(43), password: '1' },
        'Password must be at least 6 characters',
      ],
      [
        '/api/auth/magic-link',
        { email: newEmail(), redirectTo: '//evil.example' },
        'redirectTo must be a path on this site, like /app',
      ],
    ];
    for (const [path, body, message] of cases) {
      const res = await post(path, body);
      expect([path, res.status]).toEqual([path, 400]);
      expect([path, (await errorOf(res)).message]).toEqual([path, message]);
    }
    const notJson = await api('/api/auth/login', {
      method: 'POST',
      body: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
  });
});

describe('single-use links', () => {
  it('refuses a reused verification link', async () => {
    const { email } = await signUp();
    const token = await linkParam(email, 'verify');
    expect((await post('/api/auth/verify', { token })).status).toBe(200);
    const again = await post('/api/auth/verify', { token });
    expect(again.status).toBe(400);
    expect(await errorOf(again)).toEqual({
      code: 'invalid_link',
      message: 'This link has expired or was already used. Request a new one.',
    });
    expect((await post('/api/auth/verify', { token: 'made-up-token-made-up-token' })).status).toBe(400);
  });

  it('refuses an expired link', async () => {
    const { email } = await signUp();
    const token = await linkParam(email, 'verify');
    // Age the stored link (it is stored as its SHA-256, never in clear).
    const store = await platform.ports.documents('identity');
    const id = createHash('sha256').update(token).digest('hex');
    await store
      .collection('link_tokens')
      .updateOne({ _id: id }, { $set: { expiresAt: new Date(Date.now() - 1000).toISOString() } });
    const res = await post('/api/auth/verify', { token });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe('invalid_link');
  });

  it('signs in with a magic link once, landing on the page it was requested from', async () => {
    const { email } = await verifiedUser();
    const res = await post('/api/auth/magic-link', { email, redirectTo: '/uploader' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Magic link sent. Check your email.' });
    const link = (await mailsTo(email))[0]!.links[0]!;
    expect(link).toMatch(/^http:\/\/localhost:\d+\/uploader\?magic=/);
    const token = new URL(link).searchParams.get('magic')!;
    const consumed = await post('/api/auth/magic-link/consume', { token });
    expect(consumed.status).toBe(200);
    expect(((await consumed.json()) as Session).user.email).toBe(email);
    const reused = await post('/api/auth/magic-link/consume', { token });
    expect(reused.status).toBe(400);
    expect((await errorOf(reused)).code).toBe('invalid_link');
  });

  it('answers a magic link request for an unknown email the same way; its link creates the account', async () => {
    const email = newEmail();
    const res = await post('/api/auth/magic-link', { email, redirectTo: '/upload?token=abc' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Magic link sent. Check your email.' });
    // Nothing exists until the link is followed: asking for strangers' addresses makes no accounts.
    expect((await login(email, 'whatever-pass')).status).toBe(401);
    const [mail] = await mailsTo(email);
    expect(mail!.text).toContain('No Omni account uses this address yet: this link creates one');
    const link = new URL(mail!.links[0]!);
    expect(`${link.pathname}?token=${link.searchParams.get('token')}`).toBe('/upload?token=abc');
    const consumed = await post('/api/auth/magic-link/consume', { token: link.searchParams.get('magic') });
    expect(consumed.status).toBe(200);
    const session = (await consumed.json()) as Session;
    expect(session.user).toMatchObject({ email, emailVerified: true, roles: ['artist'] });
    const me = await api('/api/me', { token: session.accessToken });
    expect(((await me.json()) as { user: { id: string } }).user.id).toBe(session.user.id);
    // The next link to that address signs the same account in.
    await post('/api/auth/magic-link', { email });
    const again = await post('/api/auth/magic-link/consume', { token: await linkParam(email, 'magic', 0) });
    expect(((await again.json()) as Session).user.id).toBe(session.user.id);
  });

  it('resets a password once; the old password and every session stop working', async () => {
    const { email, password, session } = await verifiedUser();
    const res = await post('/api/auth/forgot-password', { email });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      message: 'If an account exists for that email, we sent a link to reset the password.',
    });
    const unknown = await post('/api/auth/forgot-password', { email: newEmail() });
    expect(await unknown.json()).toEqual(
      await (async () => ({
        message: 'If an account exists for that email, we sent a link to reset the password.',
      }))(),
    );

    const token = await linkParam(email, 'reset');
    const done = await post('/api/auth/reset-password', { token, password: 'brand-new-pass' });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ message: 'Password updated. You can sign in now.' });
    expect((await login(email, password)).status).toBe(401);
    expect((await login(email, 'brand-new-pass')).status).toBe(200);
    expect((await post('/api/auth/refresh', { refreshToken: session.refreshToken })).status).toBe(401);

    const reused = await post('/api/auth/reset-password', { token, password: 'another-pass' });
    expect(reused.status).toBe(400);
    expect((await errorOf(reused)).message).toBe(
      'This link has expired or was already used. Request a new one.',
    );
  });
});

describe('sessions', () => {
  it('rotates refresh tokens and revokes the family when an old one is reused', async () => {
    const { session } = await verifiedUser();
    const first = await post('/api/auth/refresh', { refreshToken: session.refreshToken });
    expect(first.status).toBe(200);
    const rotated = (await first.json()) as Session;
    expect(rotated.refreshToken).not.toBe(session.refreshToken);
    expect(rotated.user.id).toBe(session.user.id);

    const reuse = await post('/api/auth/refresh', { refreshToken: session.refreshToken });
    expect(reuse.status).toBe(401);
    expect((await errorOf(reuse)).message).toBe('Your session has expired. Please sign in again.');
    // The thief's reuse ended the family: the newest token is dead too.
    expect((await post('/api/auth/refresh', { refreshToken: rotated.refreshToken })).status).toBe(401);
  });

  it('logout revokes the refresh token', async () => {
    const { session } = await verifiedUser();
    const out = await post('/api/auth/logout', { refreshToken: session.refreshToken });
    expect(out.status).toBe(204);
    expect((await post('/api/auth/refresh', { refreshToken: session.refreshToken })).status).toBe(401);
    expect((await post('/api/auth/refresh', { refreshToken: 'nonsense' })).status).toBe(401);
  });

  it('refuses tampered, expired and foreign access tokens with 401', async () => {
    const { session } = await verifiedUser();
    const [h, p, s] = session.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(
      JSON.stringify({ ...claims, realm_access: { roles: ['artist', 'admin'] } }),
    ).toString('base64url');
    const tampered = await api('/api/me', { token: `${h}.${forged}.${s}` });
    expect(tampered.status).toBe(401);
    expect((await errorOf(tampered)).code).toBe('invalid_token');

    const store = await platform.ports.documents('identity');
    const expired = await signTestToken(store, { userId: session.user.id, expiresIn: '-1m' });
    const res = await api('/api/me', { token: expired });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toBe('Your session has expired. Please sign in again.');

    const { generateKeyPair } = await import('jose');
    const { privateKey } = await generateKeyPair('RS256');
    const foreign = await new SignJWT({ realm_access: { roles: ['admin'] } })
      .setProtectedHeader({ alg: 'RS256', kid: 'foreign' })
      .setSubject(session.user.id)
      .setIssuer(`${platform.config.publicUrl}/realms/omni`)
      .setExpirationTime('5m')
      .sign(privateKey);
    expect((await api('/api/me', { token: foreign })).status).toBe(401);
    expect((await api('/api/me')).status).toBe(401);
  });

  it('keeps a non-admin out of admin endpoints (403) and lets the seeded admin in', async () => {
    const { session } = await verifiedUser();
    const res = await api('/api/admin/uploads', { method: 'POST', token: session.accessToken, json: {} });
    expect(res.status).toBe(403);

    const file = readFileSync(join(platform.dataDir, 'initial-admin.txt'), 'utf8');
    const password = /password: (\S+)/.exec(file)![1]!;
    const admin = await login('admin@omni.local', password);
    expect(admin.status).toBe(200);
    const adminSession = (await admin.json()) as Session;
    expect(adminSession.user.roles).toEqual(['artist', 'admin']);
    expect(adminSession.profile.displayName).toBe('Omni admin');
    const allowed = await api('/api/admin/uploads', {
      method: 'POST',
      token: adminSession.accessToken,
      json: { pageSlug: 'music', kind: 'music', title: '' },
    });
    expect(allowed.status).toBe(400); // past the guard, stopped by validation
  });
});

describe('profile', () => {
  it('updates the display name, which later sessions and tokens carry', async () => {
    const { email, password, session } = await verifiedUser();
    const res = await api('/api/me', {
      method: 'PATCH',
      token: session.accessToken,
      json: { displayName: '  Nova  ' },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { profile: { displayName: string } }).profile).toEqual({
      displayName: 'Nova',
      mail: { releases: true, billing: true },
    });
    const again = (await (await login(email, password)).json()) as Session;
    expect(again.profile.displayName).toBe('Nova');
    const claims = JSON.parse(Buffer.from(again.accessToken.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({
      name: 'Nova',
      email,
      email_verified: true,
      realm_access: { roles: ['artist'] },
    });

    const tooLong = await api('/api/me', {
      method: 'PATCH',
      token: session.accessToken,
      json: { displayName: 'x'.repeat(81) },
    });
    expect(tooLong.status).toBe(400);
    expect((await errorOf(tooLong)).message).toBe('Display name must be at most 80 characters');
  });
});

describe('providers, mailbox and rate limits', () => {
  it('says Google is not configured, and where the dev mailbox is', async () => {
    expect(await (await api('/api/auth/providers')).json()).toEqual({
      google: false,
      mailbox: '/dev/mailbox',
    });
    // The Google routes are page navigations: back to the sign-in page, which explains (never a 5xx).
    const google = await api('/api/auth/google?redirectTo=/app', { redirect: 'manual' });
    expect(google.status).toBe(302);
    expect(google.headers.get('location')).toBe('/login?error=google_not_configured');
  });

  it('shows the dev mailbox as HTML with clickable links', async () => {
    const { email } = await signUp();
    const res = await api(`/dev/mailbox?to=${encodeURIComponent(email)}`, { ip: '127.0.0.1' });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Confirm your email for Omni');
    expect(html).toMatch(/<a href="http:\/\/localhost:\d+\/login\?verify=[^"]+">/);
  });

  it('limits attempts per email and per IP with 429 and Retry-After', async () => {
    const email = newEmail();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await login(email, 'wrong-password')).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    const limited = await login(email, 'wrong-password');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await errorOf(limited)).toEqual({
      code: 'rate_limited',
      message: 'Too many attempts. Please wait a minute and try again.',
    });

    const ip = freshIp();
    const byIp: number[] = [];
    for (let i = 0; i < 31; i++)
      byIp.push((await post('/api/auth/resend', { email: newEmail() }, ip)).status);
    expect(byIp.filter((s) => s === 200)).toHaveLength(30);
    expect(byIp[30]).toBe(429);
  });
});

describe('npm run create-admin', () => {
  it('creates a further admin through the running identity service', async () => {
    // Asynchronously: the platform answering the script runs in this very process.
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const email = newEmail();
    const { stdout: out } = await promisify(execFile)(
      process.execPath,
      ['scripts/create-admin.mjs', email, 'admin-pass-123'],
      {
        cwd: join(__dirname, '../..'),
        env: {
          ...process.env,
          IDENTITY_GRPC_ADDR: `127.0.0.1:${platform.config.bound.get('identity')!.grpc}`,
        },
        encoding: 'utf8',
      },
    );
    expect(out).toContain(`Created administrator ${email}.`);
    expect(out).not.toContain('admin-pass-123');
    const res = await login(email, 'admin-pass-123');
    expect(res.status).toBe(200);
    expect(((await res.json()) as Session).user.roles).toEqual(['artist', 'admin']);
  }, 30_000);
});
