import { apiFetch } from '../src/lib/api';
import { createSessionStore, getSessionStore, type SessionStore, STORAGE_KEY } from '../src/session';
import type { AuthSession, StoredSession } from '../src/session/types';

const T0 = 1_700_000_000_000;

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
    data,
  };
}

const user = { id: 'u1', email: 'ada@example.com', emailVerified: true, roles: ['artist'] };

const issued = (n: number): AuthSession => ({
  accessToken: `access-${n}`,
  refreshToken: `refresh-${n}`,
  expiresIn: 300,
  refreshExpiresIn: 86_400,
  user,
  profile: { displayName: null },
});

const stored = (n: number, overrides: Partial<StoredSession> = {}): string =>
  JSON.stringify({
    accessToken: `access-${n}`,
    refreshToken: `refresh-${n}`,
    accessExpiresAt: T0 + 300_000,
    refreshExpiresAt: T0 + 86_400_000,
    user,
    profile: { displayName: 'Ada' },
    ...overrides,
  });

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

function harness(initial: Record<string, string> = {}, respond?: (url: string, body: unknown) => Response) {
  const storage = memoryStorage(initial);
  const clock = { now: T0 };
  const timers: { run: () => void; at: number }[] = [];
  const calls: { url: string; body: unknown }[] = [];
  const fetchImpl = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const body = init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
    calls.push({ url, body });
    return respond ? respond(url, body) : json(500, {});
  });
  const store = createSessionStore({
    storage,
    fetch: fetchImpl as typeof fetch,
    now: () => clock.now,
    setTimer: (run, ms) => {
      const timer = { run, at: clock.now + ms };
      timers.push(timer);
      return timer;
    },
    clearTimer: (handle) => {
      const i = timers.indexOf(handle as (typeof timers)[number]);
      if (i >= 0) timers.splice(i, 1);
    },
  });
  const saved = () => JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null') as StoredSession | null;
  return { store, storage, clock, timers, calls, saved };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('session store', () => {
  let store: SessionStore | undefined;
  afterEach(() => store?.dispose());

  it('starts signed out without a stored session, signed in with a fresh one', () => {
    store = harness().store;
    expect(store.getState()).toEqual({ status: 'signed-out', session: null });
    store.dispose();
    store = harness({ [STORAGE_KEY]: stored(1) }).store;
    expect(store.getState().status).toBe('signed-in');
    expect(store.getState().session?.profile.displayName).toBe('Ada');
  });

  it('forgets a session whose refresh token has expired', () => {
    const h = harness({ [STORAGE_KEY]: stored(1, { refreshExpiresAt: T0 - 1 }) });
    store = h.store;
    expect(store.getState().status).toBe('signed-out');
    expect(h.saved()).toBeNull();
  });

  it('is loading while an expired access token is refreshed, then stores the rotated tokens', async () => {
    const h = harness({ [STORAGE_KEY]: stored(1, { accessExpiresAt: T0 - 1 }) }, () => json(200, issued(2)));
    store = h.store;
    expect(store.getState().status).toBe('loading');
    await settle();
    expect(h.calls).toEqual([{ url: '/api/auth/refresh', body: { refreshToken: 'refresh-1' } }]);
    expect(store.getState().status).toBe('signed-in');
    expect(h.saved()).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
  });

  it('refreshes ahead of expiry on a timer', async () => {
    const h = harness({}, () => json(200, issued(2)));
    store = h.store;
    store.signIn(issued(1));
    expect(h.timers).toHaveLength(1);
    const timer = h.timers[0];
    // A 5-minute token is refreshed a minute before it expires.
    expect(timer?.at).toBe(T0 + 240_000);
    h.clock.now = timer?.at ?? 0;
    timer?.run();
    await settle();
    expect(h.calls[0]?.body).toEqual({ refreshToken: 'refresh-1' });
    expect(store.getState().session?.accessToken).toBe('access-2');
  });

  it('signs out when the server refuses the refresh token', async () => {
    const h = harness({ [STORAGE_KEY]: stored(1) }, () => json(401, { error: { message: 'expired' } }));
    store = h.store;
    await expect(store.refresh()).resolves.toBeNull();
    expect(store.getState().status).toBe('signed-out');
    expect(h.saved()).toBeNull();
  });

  it('adopts tokens another tab rotated instead of spending the old refresh token', async () => {
    const h = harness({ [STORAGE_KEY]: stored(1) });
    store = h.store;
    h.storage.setItem(STORAGE_KEY, stored(2));
    await expect(store.refresh()).resolves.toBe('access-2');
    expect(h.calls).toHaveLength(0);
    expect(store.getState().session?.refreshToken).toBe('refresh-2');
  });

  it('follows another tab signing out (storage event)', () => {
    const h = harness({ [STORAGE_KEY]: stored(1) });
    store = h.store;
    const seen: string[] = [];
    store.subscribe(() => seen.push(h.store.getState().status));
    h.storage.removeItem(STORAGE_KEY);
    store.syncFromStorage();
    expect(seen).toEqual(['signed-out']);
  });

  it('revokes the refresh token on sign-out; a server failure keeps the session and reports it', async () => {
    let fail = true;
    const h = harness({ [STORAGE_KEY]: stored(1) }, () =>
      fail ? json(503, { error: { message: 'Identity is unavailable' } }) : json(204, undefined),
    );
    store = h.store;
    await expect(store.signOut()).rejects.toThrow('Identity is unavailable');
    expect(store.getState().status).toBe('signed-in');
    fail = false;
    await store.signOut();
    expect(h.calls.at(-1)).toEqual({ url: '/api/auth/logout', body: { refreshToken: 'refresh-1' } });
    expect(store.getState().status).toBe('signed-out');
    expect(h.saved()).toBeNull();
  });

  it('signInWith shows loading, and restores the previous state when the link is refused', async () => {
    store = harness().store;
    let reject: (error: Error) => void = () => undefined;
    const pending = store.signInWith(
      () =>
        new Promise((_resolve, rej) => {
          reject = rej;
        }),
    );
    expect(store.getState().status).toBe('loading');
    reject(new Error('This link has expired'));
    await expect(pending).rejects.toThrow('This link has expired');
    expect(store.getState().status).toBe('signed-out');
  });
});

describe('apiFetch with a session', () => {
  const realFetch = global.fetch;
  afterEach(() => {
    global.fetch = realFetch;
  });

  it('sends the bearer token, and on a 401 refreshes once and retries', async () => {
    const now = Date.now();
    const storage = memoryStorage({
      [STORAGE_KEY]: stored(1, { accessExpiresAt: now + 300_000, refreshExpiresAt: now + 86_400_000 }),
    });
    (globalThis as { localStorage?: unknown }).localStorage = storage;
    const seen: { url: string; authorization: string | null }[] = [];
    global.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const authorization = new Headers(init?.headers).get('authorization');
      seen.push({ url, authorization });
      if (url === '/api/auth/refresh') return json(200, issued(2));
      return authorization === 'Bearer access-2'
        ? json(200, { ok: true })
        : json(401, { error: { message: 'no' } });
    }) as typeof fetch;

    await expect(apiFetch('/api/me')).resolves.toEqual({ ok: true });
    expect(seen).toEqual([
      { url: '/api/me', authorization: 'Bearer access-1' },
      { url: '/api/auth/refresh', authorization: null },
      { url: '/api/me', authorization: 'Bearer access-2' },
    ]);
    expect(getSessionStore().getState().session?.refreshToken).toBe('refresh-2');

    // The auth endpoints opt out of the bearer.
    seen.length = 0;
    await apiFetch('/api/auth/providers', {}, { auth: false }).catch(() => undefined);
    expect(seen[0]?.authorization).toBeNull();
    getSessionStore().dispose();
  });
});
