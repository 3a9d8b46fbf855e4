/** The signed-in account as the auth API returns it. */
export interface SessionUser {
  id: string;
  email: string;
  emailVerified: boolean;
  roles: string[];
}

/** Every account has a profile; the display name may be empty until the user sets one. */
export interface SessionProfile {
  displayName: string | null;
}

/** What POST /api/auth/{login,refresh,verify,magic-link/consume} answer (lifetimes in seconds). */
export interface AuthSession {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresIn: number;
  user: SessionUser;
  profile: SessionProfile;
}

/** What we keep in localStorage: lifetimes turned into absolute times (ms since epoch). */
export interface StoredSession {
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: number;
  refreshExpiresAt: number;
  user: SessionUser;
  profile: SessionProfile;
}

/** Spec section 4: the session is loading, then signed in or signed out. */
export type SessionStatus = 'loading' | 'signed-in' | 'signed-out';

export interface SessionState {
  status: SessionStatus;
  session: StoredSession | null;
}
