// The browser session, ONE instance per page.
//
// Module federation shares this file as the singleton '@omni/ui/session' (see rspack.base.mjs), so
// the shell and every remote see the same tokens and the same listeners. Import it only by that
// name, never by a relative path: a relative import would bundle a private second copy whose
// state nobody else sees.
import { createSessionStore, type SessionStore, STORAGE_KEY } from './session/store';

export { parseAuthSession } from './session/parse';
export { createSessionStore, SessionExpiredError, type SessionStore, STORAGE_KEY } from './session/store';
export type {
  AuthSession,
  SessionProfile,
  SessionState,
  SessionStatus,
  SessionUser,
  StoredSession,
} from './session/types';

let store: SessionStore | null = null;

function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // access denied (e.g. cookies blocked): no persistence
  }
}

/** The page's session store, created on first use from localStorage. */
export function getSessionStore(): SessionStore {
  if (store) return store;
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  const created = createSessionStore({
    storage: browserStorage(),
    fetch: (input, init) => fetch(input, init),
    now: () => Date.now(),
    setTimer: (run, ms) => setTimeout(run, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    withLock: locks
      ? <T>(name: string, task: () => Promise<T>) =>
          // The lock is held until the callback's promise settles, i.e. until `task` is done.
          new Promise<T>((resolve, reject) => {
            locks.request(name, () => task().then(resolve, reject)).catch(reject);
          })
      : undefined,
  });
  if (typeof window !== 'undefined') {
    // Another tab signed in, refreshed or signed out.
    window.addEventListener('storage', (event) => {
      if (event.key === null || event.key === STORAGE_KEY) created.syncFromStorage();
    });
  }
  store = created;
  return created;
}
