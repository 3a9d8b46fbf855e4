import { parseAuthSession, parseStoredSession, toStoredSession } from './parse';
import type { AuthSession, SessionProfile, SessionState, StoredSession } from './types';

export const STORAGE_KEY = 'omni.session';
const REFRESH_LOCK = 'omni.session.refresh';
/** Refresh this long before the access token expires (capped at a fifth of its lifetime). */
const REFRESH_AHEAD_MS = 60_000;
/** Never schedule refreshes closer together than this, even for very short-lived tokens. */
const MIN_REFRESH_DELAY_MS = 5_000;

export interface SessionStoreDeps {
  /** localStorage, or null where there is none (tests, server rendering): then nothing persists. */
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  fetch: typeof fetch;
  now: () => number;
  setTimer: (run: () => void, ms: number) => unknown;
  clearTimer: (handle: unknown) => void;
  /**
   * Runs `task` while holding a lock shared by every tab of the site (navigator.locks). Without it
   * two tabs could both spend the same refresh token; the server treats that as theft and revokes
   * the whole token family, signing the user out everywhere.
   */
  withLock?: <T>(name: string, task: () => Promise<T>) => Promise<T>;
}

export interface SessionStore {
  getState(): SessionState;
  subscribe(listener: () => void): () => void;
  /** Stores a session the API just issued (sign-in, email verification, magic link). */
  signIn(session: AuthSession): void;
  /**
   * Marks the session as loading while `task` (e.g. consuming an emailed link) runs, then signs in
   * with its result. On failure the previous state comes back and the error is rethrown.
   */
  signInWith(task: () => Promise<unknown>): Promise<AuthSession>;
  /** A valid access token (refreshed first if it is about to expire), or null when signed out. */
  getAccessToken(): Promise<string | null>;
  /**
   * Refreshes now (the server rejected the access token). Resolves to the new access token, or
   * null when the refresh token is no longer accepted (the session is then cleared).
   */
  refresh(): Promise<string | null>;
  /** Revokes the refresh token on the server, then forgets the session. Rejects if the server failed. */
  signOut(): Promise<void>;
  updateProfile(profile: SessionProfile): void;
  /** Re-reads localStorage after another tab changed it (wired to the `storage` event). */
  syncFromStorage(): void;
  /** Stops the refresh timer (tests). */
  dispose(): void;
}

export class SessionExpiredError extends Error {
  constructor(message = 'Your session has expired. Please sign in again.') {
    super(message);
    this.name = 'SessionExpiredError';
  }
}

async function errorMessage(response: Response, fallback: string): Promise<string> {
  try {
    const body = (await response.json()) as { error?: { message?: unknown } };
    const message = body?.error?.message;
    return typeof message === 'string' && message !== '' ? message : fallback;
  } catch {
    return fallback;
  }
}

export function createSessionStore(deps: SessionStoreDeps): SessionStore {
  const listeners = new Set<() => void>();
  let state: SessionState = { status: 'signed-out', session: null };
  let timer: unknown = null;
  let inflight: Promise<string | null> | null = null;

  const read = (): StoredSession | null => {
    try {
      return parseStoredSession(deps.storage?.getItem(STORAGE_KEY) ?? null);
    } catch {
      return null; // storage disabled (privacy mode): behave as signed out
    }
  };

  const write = (session: StoredSession | null): void => {
    try {
      if (session) deps.storage?.setItem(STORAGE_KEY, JSON.stringify(session));
      else deps.storage?.removeItem(STORAGE_KEY);
    } catch {
      // Storage full or disabled: the session still works for this page, it just won't persist.
    }
  };

  const set = (next: SessionState): void => {
    state = next;
    schedule();
    for (const listener of [...listeners]) listener();
  };

  const adopt = (session: StoredSession | null): void =>
    set(session ? { status: 'signed-in', session } : { status: 'signed-out', session: null });

  const clear = (): void => {
    write(null);
    adopt(null);
  };

  function schedule(): void {
    if (timer !== null) deps.clearTimer(timer);
    timer = null;
    const session = state.session;
    if (!session) return;
    const lifetime = session.accessExpiresAt - deps.now();
    const ahead = Math.min(REFRESH_AHEAD_MS, Math.max(lifetime, 0) / 5);
    const delay = Math.max(lifetime - ahead, MIN_REFRESH_DELAY_MS);
    timer = deps.setTimer(() => {
      timer = null;
      // A failure here is retried by the next getAccessToken(); nothing to report.
      refreshIfStale(true).catch(() => undefined);
    }, delay);
  }

  const isFresh = (session: StoredSession): boolean => session.accessExpiresAt - deps.now() > 15_000;

  /**
   * Refreshes unless another tab already did (then its tokens are adopted). `force` refreshes even
   * a token that looks fresh by the clock (the server said 401, or the timer fired).
   */
  function refreshIfStale(force: boolean): Promise<string | null> {
    inflight ??= (async () => {
      const run = async (): Promise<string | null> => {
        const latest = read() ?? (deps.storage ? null : state.session);
        if (!latest || latest.refreshExpiresAt <= deps.now()) {
          clear();
          return null;
        }
        const rotatedElsewhere = latest.refreshToken !== state.session?.refreshToken;
        if (rotatedElsewhere && isFresh(latest)) {
          adopt(latest);
          return latest.accessToken;
        }
        if (!force && isFresh(latest)) return latest.accessToken;
        const response = await deps.fetch('/api/auth/refresh', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ refreshToken: latest.refreshToken }),
        });
        if (response.status === 400 || response.status === 401 || response.status === 403) {
          clear();
          return null;
        }
        if (!response.ok) {
          throw new Error(
            await errorMessage(response, `Could not refresh the session (${response.status}).`),
          );
        }
        const stored = toStoredSession(parseAuthSession(await response.json()), deps.now());
        write(stored);
        adopt(stored);
        return stored.accessToken;
      };
      return deps.withLock ? deps.withLock(REFRESH_LOCK, run) : run();
    })().finally(() => {
      inflight = null;
    });
    return inflight;
  }

  function signIn(session: AuthSession): void {
    const stored = toStoredSession(session, deps.now());
    write(stored);
    adopt(stored);
  }

  // Start from what this browser remembers. An expired access token with a live refresh token is
  // "loading" until the refresh answers.
  const initial = read();
  if (!initial || initial.refreshExpiresAt <= deps.now()) {
    if (initial) write(null);
  } else if (isFresh(initial)) {
    state = { status: 'signed-in', session: initial };
    schedule();
  } else {
    state = { status: 'loading', session: initial };
    refreshIfStale(true).catch(() => {
      // Offline or the server failed: keep what we have; the next call retries.
      if (state.status === 'loading') adopt(state.session);
    });
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    signIn,
    async signInWith(task) {
      const before = state;
      set({ status: 'loading', session: state.session });
      try {
        const session = parseAuthSession(await task());
        signIn(session);
        return session;
      } catch (error) {
        set(before);
        throw error;
      }
    },
    async getAccessToken() {
      const session = state.session;
      if (!session) return null;
      if (isFresh(session) && state.status === 'signed-in') return session.accessToken;
      return refreshIfStale(false);
    },
    refresh: () => refreshIfStale(true),
    async signOut() {
      const session = state.session ?? read();
      if (session) {
        const response = await deps.fetch('/api/auth/logout', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ refreshToken: session.refreshToken }),
        });
        // 401: the token was already revoked or expired, which is what signing out wants anyway.
        if (!response.ok && response.status !== 401) {
          throw new Error(await errorMessage(response, `Sign-out failed (${response.status}).`));
        }
      }
      clear();
    },
    updateProfile(profile) {
      if (!state.session) return;
      const session = { ...state.session, profile };
      write(session);
      set({ ...state, session });
    },
    syncFromStorage() {
      const latest = read();
      if (
        latest?.refreshToken === state.session?.refreshToken &&
        latest?.accessToken === state.session?.accessToken
      ) {
        if (latest && latest.profile.displayName !== state.session?.profile.displayName) {
          set({ ...state, session: latest });
        }
        return;
      }
      adopt(latest && latest.refreshExpiresAt > deps.now() ? latest : null);
    },
    dispose() {
      if (timer !== null) deps.clearTimer(timer);
      timer = null;
      listeners.clear();
    },
  };
}
