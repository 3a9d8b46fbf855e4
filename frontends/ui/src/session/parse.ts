import type { AuthSession, SessionProfile, SessionUser, StoredSession } from './types';

// Validated by hand rather than with zod: this module is shared by every bundle on the page and
// should stay a few kilobytes. The shapes are small.

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null;
const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isFiniteNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

function parseUser(raw: unknown): SessionUser | null {
  if (!isObj(raw) || !isNonEmptyString(raw.id) || !isNonEmptyString(raw.email)) return null;
  const roles = Array.isArray(raw.roles) ? raw.roles.filter((r): r is string => typeof r === 'string') : [];
  return { id: raw.id, email: raw.email, emailVerified: raw.emailVerified === true, roles };
}

function parseProfile(raw: unknown): SessionProfile {
  const name = isObj(raw) ? raw.displayName : undefined;
  return { displayName: typeof name === 'string' && name.trim() !== '' ? name : null };
}

/** A session from the API, or an Error naming what is wrong (the server broke the contract). */
export function parseAuthSession(raw: unknown): AuthSession {
  if (!isObj(raw)) throw new Error('The server sent no session.');
  const user = parseUser(raw.user);
  if (
    !isNonEmptyString(raw.accessToken) ||
    !isNonEmptyString(raw.refreshToken) ||
    !isFiniteNumber(raw.expiresIn) ||
    !isFiniteNumber(raw.refreshExpiresIn) ||
    !user
  ) {
    throw new Error('The server sent an incomplete session.');
  }
  return {
    accessToken: raw.accessToken,
    refreshToken: raw.refreshToken,
    expiresIn: raw.expiresIn,
    refreshExpiresIn: raw.refreshExpiresIn,
    user,
    profile: parseProfile(raw.profile),
  };
}

export function toStoredSession(session: AuthSession, now: number): StoredSession {
  return {
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    accessExpiresAt: now + session.expiresIn * 1000,
    refreshExpiresAt: now + session.refreshExpiresIn * 1000,
    user: session.user,
    profile: session.profile,
  };
}

/** What localStorage holds, or null when it is missing or not ours (then we are signed out). */
export function parseStoredSession(text: string | null): StoredSession | null {
  if (!text) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObj(raw)) return null;
  const user = parseUser(raw.user);
  if (
    !isNonEmptyString(raw.accessToken) ||
    !isNonEmptyString(raw.refreshToken) ||
    !isFiniteNumber(raw.accessExpiresAt) ||
    !isFiniteNumber(raw.refreshExpiresAt) ||
    !user
  ) {
    return null;
  }
  return {
    accessToken: raw.accessToken,
    refreshToken: raw.refreshToken,
    accessExpiresAt: raw.accessExpiresAt,
    refreshExpiresAt: raw.refreshExpiresAt,
    user,
    profile: parseProfile(raw.profile),
  };
}
