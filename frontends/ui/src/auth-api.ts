// Calls to the gateway's auth API (contract: POST /api/auth/*, GET /api/auth/providers, /api/me).
// Endpoints that issue a session store it in the page's session; the rest return the server's
// message so screens can show it as is.
import { type AuthSession, getSessionStore, parseAuthSession, type SessionProfile } from '@omni/ui/session';
import { apiFetch } from './lib/api';

export interface Credentials {
  email: string;
  password: string;
}

export interface AuthProviders {
  google: boolean;
  /** Where the dev mailbox is (embedded mode only), else null. */
  mailbox: string | null;
}

interface MessageReply {
  message?: unknown;
}

const post = <T>(path: string, body: unknown) =>
  apiFetch<T>(path, { method: 'POST', body: JSON.stringify(body) }, { auth: false });

const messageOf = (reply: MessageReply | null, fallback: string): string =>
  typeof reply?.message === 'string' && reply.message !== '' ? reply.message : fallback;

export async function fetchAuthProviders(): Promise<AuthProviders> {
  const raw = await apiFetch<{ google?: unknown; mailbox?: unknown }>(
    '/api/auth/providers',
    {},
    { auth: false },
  );
  return {
    google: raw?.google === true,
    mailbox: typeof raw?.mailbox === 'string' ? raw.mailbox : null,
  };
}

/** Signs in with email and password and stores the session. */
export async function signInWithPassword(credentials: Credentials): Promise<AuthSession> {
  const session = parseAuthSession(await post<unknown>('/api/auth/login', credentials));
  getSessionStore().signIn(session);
  return session;
}

/** Creates the account and sends the verification email; resolves to the server's message. */
export async function signUp(credentials: Credentials): Promise<string> {
  return messageOf(await post<MessageReply>('/api/auth/signup', credentials), 'Account created!');
}

export async function resendVerification(email: string): Promise<string> {
  return messageOf(await post<MessageReply>('/api/auth/resend', { email }), 'Verification sent');
}

/** Emails a single-use sign-in link that comes back to `redirectTo` (a path on this site). */
export async function sendMagicLink(email: string, redirectTo: string): Promise<string> {
  return messageOf(
    await post<MessageReply>('/api/auth/magic-link', { email, redirectTo }),
    'Magic link sent. Check your email.',
  );
}

/** Signs in with the token from a magic link (the session is 'loading' meanwhile). */
export function consumeMagicLink(token: string): Promise<AuthSession> {
  return getSessionStore().signInWith(() => post<unknown>('/api/auth/magic-link/consume', { token }));
}

/** Signs in with the one-time code the Google callback put in the URL (`?handoff=`). */
export function redeemHandoff(code: string): Promise<AuthSession> {
  return getSessionStore().signInWith(() => post<unknown>('/api/auth/handoff', { code }));
}

/** Confirms the email with the token from the verification mail, which also signs in. */
export function verifyEmail(token: string): Promise<AuthSession> {
  return getSessionStore().signInWith(() => post<unknown>('/api/auth/verify', { token }));
}

export async function requestPasswordReset(email: string): Promise<string> {
  return messageOf(
    await post<MessageReply>('/api/auth/forgot-password', { email }),
    'If an account exists for that email, we sent a link to reset the password.',
  );
}

export async function resetPassword(token: string, password: string): Promise<string> {
  return messageOf(
    await post<MessageReply>('/api/auth/reset-password', { token, password }),
    'Password updated. You can sign in now.',
  );
}

/** Where the browser goes to sign in with Google (the gateway redirects to the identity provider). */
export function googleSignInUrl(redirectTo = '/app'): string {
  return `/api/auth/google?redirectTo=${encodeURIComponent(redirectTo)}`;
}

/** Saves the display name and updates the session's copy of the profile. */
export async function updateDisplayName(displayName: string): Promise<SessionProfile> {
  const reply = await apiFetch<{ profile?: { displayName?: unknown } }>('/api/me', {
    method: 'PATCH',
    body: JSON.stringify({ displayName }),
  });
  const name = reply?.profile?.displayName;
  const profile = { displayName: typeof name === 'string' && name !== '' ? name : null };
  getSessionStore().updateProfile(profile);
  return profile;
}

/** The name to greet the user with: their display name, else the fallback (spec: 'Artist'). */
export function displayNameOf(profile: SessionProfile | undefined, fallback: string): string {
  return profile?.displayName?.trim() || fallback;
}
