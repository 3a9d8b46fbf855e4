// 'Continue with Google': Keycloak brokers Google; the gateway runs the OAuth code flow for the public
// `omni-web` client as a backend for the browser.
//
//   GET /api/auth/google?redirectTo=/app  → state + PKCE verifier in a signed, HttpOnly cookie (10 min),
//                                           302 to Keycloak's auth endpoint with kc_idp_hint=google
//   GET /api/auth/google/callback?code&state → cookie and state checked, identity exchanges the code and
//                                           parks the session under a one-time handoff code,
//                                           302 to `${redirectTo}?handoff=<code>` (POST /api/auth/handoff)
//
// Tokens never appear in a URL; every failure lands on /login?error=<short code> (the login page
// explains each). The cookie is signed, not encrypted: it holds nothing the browser that started the
// sign-in may not know, and the signature stops anyone from choosing the verifier or the redirect.
import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { createLogger, type Env, isServiceError, type PromiseClient, reasonOf } from '@omni/platform';
import type { identity } from '@omni/proto';
import { Router as createRouter, type Request, type Response, type Router } from 'express';
import { z } from 'zod';

type IdentityClient = PromiseClient<typeof identity.IdentityServiceService>;

export const GOOGLE_COOKIE = 'omni_google_signin';
const COOKIE_PATH = '/api/auth/google';
const COOKIE_TTL_MS = 10 * 60_000;

/** The short codes /login?error= carries; frontends/dashboard's login page words each. */
export type GoogleFailure =
  | 'google_cancelled'
  | 'google_expired'
  | 'google_failed'
  | 'email_not_confirmed'
  // Both routes are page navigations (the button, Keycloak's redirect back): without Google set up,
  // the browser is sent back to the sign-in page with an explanation rather than shown a JSON error.
  | 'google_not_configured';

export interface GoogleSignInOptions {
  env: Pick<Env, 'IDENTITY_PROVIDER' | 'GOOGLE_SIGN_IN' | 'KEYCLOAK_CLIENT_SECRET'>;
  /** Keycloak's address as browsers see it. */
  keycloakPublicUrl?: string;
  realm: string;
  publicUrl: string;
  /** The public client the codes are issued to (the realm's `omni-web`). */
  webClientId?: string;
}

const pending = z.object({
  state: z.string().min(1),
  verifier: z.string().min(1),
  redirectTo: z.string().min(1),
  expiresAt: z.number(),
});
type Pending = z.infer<typeof pending>;

const b64 = (buf: Buffer) => buf.toString('base64url');
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Constant-time equality of two strings of any length (compares their digests). */
export const sameSecret = (a: string, b: string) => timingSafeEqual(sha256(a), sha256(b));

/** Signs and checks the pending sign-in cookie: base64url(JSON).base64url(HMAC-SHA256). */
export function pendingCookieCodec(key: Buffer, now: () => number = Date.now) {
  const mac = (payload: string) => b64(createHmac('sha256', key).update(payload).digest());
  return {
    encode(value: Omit<Pending, 'expiresAt'>): string {
      const payload = b64(Buffer.from(JSON.stringify({ ...value, expiresAt: now() + COOKIE_TTL_MS })));
      return `${payload}.${mac(payload)}`;
    },
    /** The pending sign-in, or null when absent, tampered with or older than 10 minutes. */
    decode(raw: string | undefined): Pending | null {
      const [payload, signature, extra] = (raw ?? '').split('.');
      if (!payload || !signature || extra !== undefined || !sameSecret(signature, mac(payload))) return null;
      try {
        const parsed = pending.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
        return parsed.success && parsed.data.expiresAt > now() ? parsed.data : null;
      } catch {
        return null;
      }
    },
  };
}

/**
 * The cookie key. Gateways behind a load balancer must agree on it, so it is derived from a secret they
 * all have in Keycloak mode (the omni-services client secret) rather than made up per process.
 */
function cookieKey(secret: string | undefined): Buffer {
  if (!secret) return randomBytes(32);
  return Buffer.from(hkdfSync('sha256', secret, 'omni', 'gateway google sign-in state cookie', 32));
}

function cookieFrom(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim());
  }
  return undefined;
}

/** A same-origin path ('/uploader'), never '//evil.example' or a full URL: default /app. */
const safePath = (value: unknown) =>
  typeof value === 'string' && value.length <= 512 && /^\/(?![/\\])[^\s]*$/.test(value) ? value : '/app';

export const googleReady = (options: GoogleSignInOptions) =>
  options.env.IDENTITY_PROVIDER === 'keycloak' && options.env.GOOGLE_SIGN_IN && !!options.keycloakPublicUrl;

export function googleSignInRoutes(client: IdentityClient, options: GoogleSignInOptions): Router {
  const router = createRouter();
  const logger = createLogger('google-sign-in');
  const publicUrl = options.publicUrl.replace(/\/$/, '');
  const redirectUri = `${publicUrl}/api/auth/google/callback`;
  const secure = publicUrl.startsWith('https:');
  const codec = pendingCookieCodec(cookieKey(options.env.KEYCLOAK_CLIENT_SECRET));
  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, secure, path: COOKIE_PATH };

  const fail = (res: Response, reason: GoogleFailure) =>
    res.redirect(302, `/login?error=${encodeURIComponent(reason)}`);

  router.get('/google', (req, res) => {
    if (!googleReady(options)) return fail(res, 'google_not_configured');
    const state = b64(randomBytes(32));
    const verifier = b64(randomBytes(48)); // 64 characters, within RFC 7636's 43-128
    const challenge = b64(createHash('sha256').update(verifier, 'ascii').digest());
    res.cookie(GOOGLE_COOKIE, codec.encode({ state, verifier, redirectTo: safePath(req.query.redirectTo) }), {
      ...cookieOptions,
      maxAge: COOKIE_TTL_MS,
    });
    // kc_idp_hint skips Keycloak's own login page and goes straight to Google.
    const auth = new URL(`${options.keycloakPublicUrl}/realms/${options.realm}/protocol/openid-connect/auth`);
    auth.searchParams.set('client_id', options.webClientId ?? 'omni-web');
    auth.searchParams.set('response_type', 'code');
    auth.searchParams.set('scope', 'openid email profile');
    auth.searchParams.set('kc_idp_hint', 'google');
    auth.searchParams.set('redirect_uri', redirectUri);
    auth.searchParams.set('state', state);
    auth.searchParams.set('code_challenge', challenge);
    auth.searchParams.set('code_challenge_method', 'S256');
    res.set('Cache-Control', 'no-store').redirect(302, auth.toString());
  });

  router.get('/google/callback', async (req, res) => {
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    if (!googleReady(options)) return fail(res, 'google_not_configured');
    const started = codec.decode(cookieFrom(req, GOOGLE_COOKIE));
    // One attempt per cookie, whatever happens next.
    res.clearCookie(GOOGLE_COOKIE, cookieOptions);

    const { code, state, error } = req.query;
    if (typeof error === 'string') {
      // access_denied: the person backed out on Google's or Keycloak's page.
      if (error !== 'access_denied') logger.warn({ error }, 'Keycloak returned an error to the callback');
      return fail(res, error === 'access_denied' ? 'google_cancelled' : 'google_failed');
    }
    if (!started || typeof state !== 'string' || !sameSecret(state, started.state)) {
      return fail(res, 'google_expired');
    }
    if (typeof code !== 'string' || !code) return fail(res, 'google_failed');

    let handoffCode: string;
    try {
      ({ handoffCode } = await client.completeExternalSignIn({
        code,
        codeVerifier: started.verifier,
        redirectUri,
      }));
    } catch (err) {
      if (reasonOf(err) === 'email_not_confirmed') return fail(res, 'email_not_confirmed');
      logger.warn(
        { err: isServiceError(err) ? { code: err.code, details: err.details } : (err as Error).name },
        'Google sign-in could not be completed',
      );
      return fail(res, 'google_failed');
    }
    const target = new URL(started.redirectTo, publicUrl);
    target.searchParams.set('handoff', handoffCode);
    res.redirect(302, `${target.pathname}${target.search}${target.hash}`);
  });

  return router;
}
