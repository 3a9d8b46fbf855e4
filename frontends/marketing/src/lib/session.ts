// Whether the visitor looks signed in, without asking the server or loading the session store: the
// marketing pages only need a hint to pick between "sign up first" and "checkout is coming".
/**
 * Where the UI kit's session store keeps the session (ui/src/session/store.ts, STORAGE_KEY). Read
 * here directly rather than through '@omni/ui/session' so a marketing page does not pull the token
 * refresh machinery into its bundle for one yes/no.
 */
export const SESSION_STORAGE_KEY = 'omni.session';

export function hasStoredSession(now = Date.now()): boolean {
  try {
    const raw = window.localStorage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return false;
    // Checked by hand, not with zod: one number does not justify ~23 KB of validator on the landing page.
    const parsed: unknown = JSON.parse(raw);
    const expiresAt =
      typeof parsed === 'object' && parsed !== null
        ? (parsed as { refreshExpiresAt?: unknown }).refreshExpiresAt
        : undefined;
    // A session whose refresh token has expired cannot be renewed: that visitor is signed out.
    return typeof expiresAt === 'number' && expiresAt > now;
  } catch {
    // Storage blocked (privacy settings, sandboxed frames) or not JSON: treat as signed out.
    return false;
  }
}
