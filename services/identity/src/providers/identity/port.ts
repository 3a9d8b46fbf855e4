// The identity-provider port: accounts, passwords, roles and the tokens that prove a session. Keycloak in
// production (admin REST API + OIDC token endpoint), the embedded issuer on one machine. Both hand out
// RS256 access tokens with Keycloak's claims, verified by every service with `createTokenVerifier`.
//
// What is NOT here: the single-use links (verification, magic link, password reset) and the mails that
// carry them. The identity service owns those on top of this port, so they behave the same with both
// providers and the links land on Omni's own screens.
import type { Role } from '@omni/platform';

export interface IdentityUser {
  id: string;
  /** Lower-cased, trimmed. */
  email: string;
  emailVerified: boolean;
  roles: Role[];
  /** Display name (the token's `name` claim); the identity service keeps it in step with the profile. */
  name?: string;
  createdAt: string;
}

export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
  /** Seconds until the refresh token expires. */
  refreshExpiresIn: number;
}

/**
 * Why a sign-in, refresh or account change was refused, or that the provider could not be asked; the
 * identity service maps each to a status.
 */
export type IdentityErrorReason =
  | 'invalid_credentials'
  | 'email_not_confirmed'
  | 'email_taken'
  | 'session_expired'
  | 'user_not_found'
  | 'weak_password'
  /** An authorization code the provider refused (expired, used, PKCE or redirect mismatch). */
  | 'external_sign_in_failed'
  /** The provider cannot do this at all (e.g. the embedded issuer brokers no external identity provider). */
  | 'not_supported'
  /**
   * The provider did not answer (down, unreachable, timed out, failing on its side): nothing was refused,
   * the caller may try again shortly. Identity answers UNAVAILABLE, the gateway a 503.
   */
  | 'unavailable';

/**
 * The reason is what counts: the identity service answers each with its own words. A message is needed
 * only where the provider knows something the person must read (a password policy, what it cannot do).
 */
export class IdentityError extends Error {
  constructor(
    readonly reason: IdentityErrorReason,
    message = `The identity provider refused: ${reason}.`,
  ) {
    super(message);
    this.name = 'IdentityError';
  }
}

export interface NewUser {
  email: string;
  password: string;
  emailVerified?: boolean;
  /** Default ['artist']. `admin` always comes with `artist`. */
  roles?: Role[];
}

/** What came back from the provider's login page (e.g. Keycloak brokering Google), to be exchanged. */
export interface AuthorizationCodeGrant {
  code: string;
  /** The PKCE verifier whose S256 challenge went with the authorization request. */
  codeVerifier: string;
  /** Exactly the redirect_uri of the authorization request. */
  redirectUri: string;
}

export interface IdentityProvider {
  /** 'embedded' or 'keycloak', for the banner and the contract suite. */
  readonly kind: string;
  /** The `iss` claim of access tokens, and where every service fetches the signing keys. */
  readonly issuer: string;
  readonly jwksUrl: string;

  /** Rejects with IdentityError('email_taken') when the email is registered. */
  createUser(user: NewUser): Promise<IdentityUser>;
  getUser(id: string): Promise<IdentityUser | null>;
  findUserByEmail(email: string): Promise<IdentityUser | null>;
  markEmailVerified(id: string): Promise<IdentityUser>;
  /** Sets a new password and ends every session of the user (a reset must lock out whoever had it). */
  setPassword(id: string, password: string): Promise<void>;
  /** Sets the display name carried by the next tokens. */
  setName(id: string, name: string): Promise<void>;
  /**
   * Changes the account's address (already proven by a link mailed to it, so it is verified). Rejects
   * with 'email_taken' when another account has it.
   */
  setEmail(id: string, email: string): Promise<IdentityUser>;
  /** Deletes the account and ends its sessions; its email can sign up again afterwards. */
  deleteUser(id: string): Promise<void>;
  /** Adds a realm role (idempotent). */
  grantRole(id: string, role: Role): Promise<IdentityUser>;

  /**
   * Password sign-in. Rejects with 'invalid_credentials' for a wrong password AND an unknown email (the
   * caller must not learn which), 'email_not_confirmed' when the password is right but the email is not
   * verified.
   */
  signInWithPassword(email: string, password: string): Promise<{ user: IdentityUser; tokens: TokenSet }>;
  /**
   * A session for a user whose identity the caller has already proven another way (a verified email link
   * or magic link). Never exposed without such a proof.
   */
  issueSession(userId: string): Promise<{ user: IdentityUser; tokens: TokenSet }>;
  /**
   * Exchanges an authorization code from the provider's own login page (Keycloak brokering Google) for
   * a session. The user may be new: the provider created them during that login. Rejects with
   * 'external_sign_in_failed' when the code is refused, 'email_not_confirmed' when the provider vouches
   * for no verified email, 'not_supported' when the provider has no such login page (embedded issuer).
   */
  exchangeAuthorizationCode(grant: AuthorizationCodeGrant): Promise<{ user: IdentityUser; tokens: TokenSet }>;
  /** Rotates: the old refresh token stops working. Reuse of a rotated token revokes the whole session. */
  refresh(refreshToken: string): Promise<{ user: IdentityUser; tokens: TokenSet }>;
  /** Revokes the session of this refresh token; unknown or expired tokens are ignored. */
  signOut(refreshToken: string): Promise<void>;

  ready(): Promise<void>;
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}
