// Whether the visitor looks signed in, without asking the server or loading the session store: the
// marketing pages only need a hint to pick between "sign up first" and "checkout is coming".
import { z } from 'zod';

/**
 * Where the UI kit's session store keeps the session (ui/src/session/store.ts, STORAGE_KEY). Read
 * here directly rather than through '@omni/ui/session' so a marketing page does not pull the token
 * refresh machinery into its bundle for one yes/no.
 */
export const SESSION_STORAGE_KEY = 'omni.session';

const storedSession = z.object({ refreshExpiresAt: z.number() });

export function hasStoredSession(now = Date.now()): boolean {
  try {
    const raw = window.localStorage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return false;
    const parsed = storedSession.safeParse(JSON.parse(raw));
    // A session whose refresh token has expired cannot be renewed: that visitor is signed out.
    return parsed.success && parsed.data.refreshExpiresAt > now;
  } catch {
    // Storage blocked (privacy settings, sandboxed frames) or not JSON: treat as signed out.
    return false;
  }
}
