// The account page's calls (GET/PATCH/DELETE /api/me, /api/me/password, /api/me/email, /api/me/deletion)
// and the links that come back to Omni's pages (a reset link checked on open, an email change confirmed).
// A call that issues a session (password change, email change) stores it, so the page goes on signed in.
import { apiFetch } from '@omni/ui';
import { getSessionStore, parseAuthSession } from '@omni/ui/session';

export interface MailSettings {
  releases: boolean;
  billing: boolean;
}

export interface Account {
  email: string;
  displayName: string;
  mail: MailSettings;
}

export interface DeletionPreview {
  releases: number;
  inStores: number;
  /** What stops the deletion now, in words to show as they are. */
  blockers: string[];
}

const json = (method: string, body: unknown): RequestInit => ({ method, body: JSON.stringify(body) });

export const accountQueryKey = (userId: string | undefined) => ['account', userId] as const;

export async function fetchAccount(): Promise<Account> {
  const raw = await apiFetch<{
    user?: { email?: string };
    profile?: { displayName?: string; mail?: Partial<MailSettings> };
  }>('/api/me');
  return {
    email: raw?.user?.email ?? '',
    displayName: raw?.profile?.displayName ?? '',
    mail: { releases: raw?.profile?.mail?.releases ?? true, billing: raw?.profile?.mail?.billing ?? true },
  };
}

export async function saveMailSettings(mail: Partial<MailSettings>): Promise<void> {
  await apiFetch('/api/me', json('PATCH', { mail }));
}

/** Stores the session an answer carries and returns its message. */
function adoptSession(raw: unknown, fallback: string): string {
  getSessionStore().signIn(parseAuthSession(raw));
  const message = (raw as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message !== '' ? message : fallback;
}

export async function changePassword(currentPassword: string, newPassword: string): Promise<string> {
  const raw = await apiFetch<unknown>('/api/me/password', json('POST', { currentPassword, newPassword }));
  return adoptSession(raw, 'Password changed.');
}

export async function requestEmailChange(email: string, password: string): Promise<string> {
  const raw = await apiFetch<{ message?: string }>('/api/me/email', json('POST', { email, password }));
  return raw?.message ?? 'Check your new address for a confirmation link.';
}

/** From the link mailed to the new address: the change happens, and this browser is signed in. */
export async function confirmEmailChange(token: string): Promise<string> {
  const raw = await apiFetch<unknown>('/api/auth/email-change/confirm', json('POST', { token }), {
    auth: false,
  });
  return adoptSession(raw, 'Your email was changed.');
}

export async function fetchDeletionPreview(): Promise<DeletionPreview> {
  const raw = await apiFetch<Partial<DeletionPreview>>('/api/me/deletion');
  return {
    releases: raw?.releases ?? 0,
    inStores: raw?.inStores ?? 0,
    blockers: Array.isArray(raw?.blockers) ? raw.blockers : [],
  };
}

export async function deleteAccount(password: string, confirmation: string): Promise<string> {
  const raw = await apiFetch<{ message?: string }>('/api/me', json('DELETE', { password, confirmation }));
  return raw?.message ?? 'Your account is deleted.';
}

/** Whether a password-reset link still works, without spending it: null when it does, else why not. */
export async function resetLinkProblem(token: string): Promise<string | null> {
  try {
    await apiFetch('/api/auth/reset-password/check', json('POST', { token }), { auth: false });
    return null;
  } catch (error) {
    const status = (error as { status?: number }).status;
    // Only a refusal of the link itself says it is dead; an outage must not hide the form for good.
    if (status === 400) return (error as Error).message;
    throw error;
  }
}
