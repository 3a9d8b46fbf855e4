// The auth REST API (/api/auth/*): validates with the spec's messages, rate-limits the abuse-prone routes
// per IP and per email, and calls the identity service over gRPC. Identity's refusals arrive as gRPC
// statuses with identity's message and a reason; the gateway's error handler turns the reason into the
// stable `code` the web app switches on (platform grpc/errors.ts), so nothing here reads a sentence.
import { type Env, normalizeEmail, type PromiseClient, parseBody, SESSION_EXPIRED } from '@omni/platform';
import type { identity } from '@omni/proto';
import { emailField, passwordField } from '@omni/proto/api';
import { Router as createRouter, type Request, type Router } from 'express';
import { z } from 'zod';
import { type RateLimitOptions, rateLimit } from '../../providers/rate-limit/rate-limit';
import { googleReady, googleSignInRoutes } from './google-sign-in';

type IdentityClient = PromiseClient<typeof identity.IdentityServiceService>;

// The fields' rules and messages are the API contract's, the same the sign-in screens check with.
const email = emailField;
const password = passwordField;
const token = z.string({ error: 'This link is not valid.' }).min(1, 'This link is not valid.').max(512);
const refreshToken = z.string({ error: SESSION_EXPIRED }).min(1, SESSION_EXPIRED).max(4096);

const credentials = z.object({ email, password });
const emailOnly = z.object({ email });
const magicLinkBody = z.object({ email, redirectTo: z.string().max(512).optional() });
const tokenBody = z.object({ token });
const resetBody = z.object({ token, password });
const refreshBody = z.object({ refreshToken });
const handoffBody = z.object({
  code: z
    .string({ error: 'This sign-in has expired or was already used. Please sign in again.' })
    .min(1, 'This sign-in has expired or was already used. Please sign in again.')
    .max(512),
});

/** The first failing rule, as the screens show it under 'Validation error'. */
const parse = <S extends z.core.$ZodType>(schema: S, req: Request): z.output<S> =>
  parseBody(schema, req, { first: true });

export const sessionJson = (s: identity.Session | undefined) => ({
  accessToken: s?.accessToken ?? '',
  refreshToken: s?.refreshToken ?? '',
  expiresIn: s?.expiresIn ?? 0,
  refreshExpiresIn: s?.refreshExpiresIn ?? 0,
  user: userJson(s?.user),
  profile: { displayName: s?.profile?.displayName ?? '' },
});

export const userJson = (u: identity.User | undefined) => ({
  id: u?.id ?? '',
  email: u?.email ?? '',
  emailVerified: u?.emailVerified ?? false,
  roles: u?.roles ?? [],
});

export interface AuthRoutesOptions {
  env: Pick<
    Env,
    | 'IDENTITY_PROVIDER'
    | 'GOOGLE_SIGN_IN'
    | 'KEYCLOAK_CLIENT_SECRET'
    | 'MAIL'
    | 'AUTH_RATE_LIMIT_PER_IP'
    | 'AUTH_RATE_LIMIT_PER_EMAIL'
  >;
  /** Keycloak's address as browsers see it, for the Google broker redirect (google-sign-in.ts). */
  keycloakPublicUrl?: string;
  realm: string;
  publicUrl: string;
  /** Where the rate-limit counters live (shared by the replicas in a cluster, see rate-limit.ts). */
  limits: Pick<RateLimitOptions, 'store' | 'fallback' | 'logger'>;
}

export function authRoutes(client: IdentityClient, options: AuthRoutesOptions): Router {
  const router = createRouter();
  const { env } = options;

  // One limiter per route, so signing up and then signing in do not share a budget.
  const limited = (route: string) =>
    rateLimit(
      [
        {
          name: `${route}:ip`,
          limit: env.AUTH_RATE_LIMIT_PER_IP,
          windowMs: 60_000,
          keys: (req) => [req.ip ?? 'unknown'],
        },
        {
          name: `${route}:email`,
          limit: env.AUTH_RATE_LIMIT_PER_EMAIL,
          windowMs: 60_000,
          keys: (req) => {
            const value = (req.body as { email?: unknown } | undefined)?.email;
            return typeof value === 'string' && value.trim() ? [normalizeEmail(value)] : [];
          },
        },
      ],
      options.limits,
    );

  router.post('/signup', limited('signup'), async (req, res) => {
    const body = parse(credentials, req);
    const { user } = await client.signUp(body);
    res.status(201).json({ user: userJson(user), message: 'Account created!' });
  });

  router.post('/login', limited('login'), async (req, res) => {
    const body = parse(credentials, req);
    const { session } = await client.signIn(body);
    res.set('Cache-Control', 'no-store').json(sessionJson(session));
  });

  router.post('/refresh', async (req, res) => {
    const body = parse(refreshBody, req);
    const { session } = await client.refresh(body);
    res.set('Cache-Control', 'no-store').json(sessionJson(session));
  });

  router.post('/logout', async (req, res) => {
    const body = parse(refreshBody, req);
    await client.signOut(body);
    res.status(204).end();
  });

  router.post('/resend', limited('resend'), async (req, res) => {
    const body = parse(emailOnly, req);
    await client.resendVerification(body);
    res.json({ message: 'Verification sent' });
  });

  router.post('/verify', async (req, res) => {
    const body = parse(tokenBody, req);
    const { session } = await client.verifyEmail(body);
    res.set('Cache-Control', 'no-store').json(sessionJson(session));
  });

  router.post('/magic-link', limited('magic-link'), async (req, res) => {
    const body = parse(magicLinkBody, req);
    await client.requestMagicLink({ email: body.email, redirectTo: body.redirectTo ?? '/app' });
    res.json({ message: 'Magic link sent. Check your email.' });
  });

  router.post('/magic-link/consume', async (req, res) => {
    const body = parse(tokenBody, req);
    const { session } = await client.consumeMagicLink(body);
    res.set('Cache-Control', 'no-store').json(sessionJson(session));
  });

  router.post('/forgot-password', limited('forgot-password'), async (req, res) => {
    const body = parse(emailOnly, req);
    await client.requestPasswordReset(body);
    res.json({ message: 'If an account exists for that email, we sent a link to reset the password.' });
  });

  router.post('/reset-password', limited('reset-password'), async (req, res) => {
    const body = parse(resetBody, req);
    await client.completePasswordReset(body);
    res.json({ message: 'Password updated. You can sign in now.' });
  });

  // The reset page asks when it opens, so a used or expired link says so before anything is typed.
  router.post('/reset-password/check', limited('reset-check'), async (req, res) => {
    const body = parse(tokenBody, req);
    await client.checkLink({ purpose: 'reset', token: body.token });
    res.set('Cache-Control', 'no-store').json({ valid: true });
  });

  // From the link mailed to a new address (/account?email-change=…): the address becomes the account's,
  // and the browser that followed it is signed in (the link proves the address, like a magic link).
  router.post('/email-change/confirm', limited('email-change'), async (req, res) => {
    const body = parse(tokenBody, req);
    const { session } = await client.confirmEmailChange(body);
    res
      .set('Cache-Control', 'no-store')
      .json({ ...sessionJson(session), message: `Your email is now ${session?.user?.email ?? ''}.` });
  });

  router.get('/providers', (_req, res) => {
    res.json({ google: googleReady(options), mailbox: env.MAIL === 'embedded' ? '/dev/mailbox' : null });
  });

  // The Google callback parks the session under a one-time code; the web app trades it here.
  router.post('/handoff', limited('handoff'), async (req, res) => {
    const body = parse(handoffBody, req);
    const { session } = await client.redeemHandoff(body);
    res.set('Cache-Control', 'no-store').json(sessionJson(session));
  });

  router.use(googleSignInRoutes(client, options));

  return router;
}
