// IdentityService over gRPC: the account flows on top of the identity-provider port (Keycloak or the
// embedded issuer), with identity's own single-use links and mails so both providers behave the same.
// Answers that could reveal whether an email is registered (resend, magic link, reset) are identical
// either way; the mails go out after the answer's work is done (use-cases/link-mails.ts).
import {
  fail,
  type Logger,
  parseWith,
  signInRequired,
  type TokenVerifier,
  type UnaryImpl,
} from '@omni/platform';
import { identity } from '@omni/proto';
import type { z } from 'zod';
import { MESSAGES } from '../domain/messages';
import * as v from '../domain/validation';
import type { IdentityProvider, IdentityUser, TokenSet } from '../providers/identity/port';
import type { Mailer } from '../providers/mail/port';
import { HANDOFF_TTL_SECONDS, type Handoffs } from '../store/handoffs';
import type { LinkTokens } from '../store/link-tokens';
import type { ProfileDoc, Profiles } from '../store/profiles';
import { accountUseCases } from '../use-cases/account';
import { linkMails } from '../use-cases/link-mails';
import { accountHandlers, profileProto, userProto } from './account-handlers';
import { answerProviderOutages, mapIdentityError } from './provider-errors';

export interface IdentityDeps {
  provider: IdentityProvider;
  links: LinkTokens;
  handoffs: Handoffs;
  profiles: Profiles;
  mailer: Mailer;
  verifier: TokenVerifier;
  publicUrl: string;
  logger: Logger;
}

/** The first failing rule's message, as the screens show it under 'Validation error'. */
const parse = <S extends z.core.$ZodType>(schema: S, value: unknown): z.output<S> =>
  parseWith(schema, value, { first: true });

export function identityHandlers(deps: IdentityDeps): UnaryImpl<typeof identity.IdentityServiceService> {
  const { provider, links, handoffs, profiles } = deps;
  const mails = linkMails(deps);
  const account = accountUseCases({ provider, links, profiles, mails });
  const session = async (user: IdentityUser, tokens: TokenSet): Promise<identity.Session> => {
    const profile = await profiles.ensure(user, 'signup');
    return {
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresIn: tokens.expiresIn,
      refreshExpiresIn: tokens.refreshExpiresIn,
      user: userProto(user),
      profile: profileProto(profile),
    };
  };

  const caller = async (bearer: string | undefined) => {
    if (!bearer) throw signInRequired();
    try {
      return await deps.verifier.verify(bearer);
    } catch (err) {
      throw signInRequired((err as Error).message || MESSAGES.sessionExpired);
    }
  };

  const me = async (userId: string): Promise<{ user: identity.User; profile: identity.Profile }> => {
    const user = await provider.getUser(userId);
    if (!user) throw fail('session_expired', MESSAGES.sessionExpired);
    const profile: ProfileDoc = await profiles.ensure(user, 'signup');
    return { user: userProto(user), profile: profileProto(profile) };
  };

  return answerProviderOutages({
    async signUp(req) {
      const email = parse(v.email, req.email);
      const password = parse(v.password, req.password);
      const user = await provider.createUser({ email, password }).catch(mapIdentityError);
      await profiles.ensure(user, 'signup');
      await mails.sendVerification(user);
      return { user: userProto(user) };
    },

    async signIn(req) {
      // A malformed email or short password cannot match an account: same answer as a wrong password.
      const email = v.email.safeParse(req.email);
      if (!email.success || !req.password) throw fail('invalid_credentials', MESSAGES.invalidCredentials);
      const { user, tokens } = await provider
        .signInWithPassword(email.data, req.password)
        .catch(mapIdentityError);
      return { session: await session(user, tokens) };
    },

    async refresh(req) {
      if (!req.refreshToken) throw fail('session_expired', MESSAGES.sessionExpired);
      const { user, tokens } = await provider.refresh(req.refreshToken).catch(mapIdentityError);
      return { session: await session(user, tokens) };
    },

    async signOut(req) {
      if (req.refreshToken) await provider.signOut(req.refreshToken);
      return {};
    },

    async resendVerification(req) {
      const email = parse(v.email, req.email);
      await mails.resendVerification(email);
      return {};
    },

    async verifyEmail(req) {
      const userId = await links.consume('verify', req.token);
      if (!userId) throw fail('invalid_link', MESSAGES.linkInvalid);
      await provider.markEmailVerified(userId).catch(mapIdentityError);
      const { user, tokens } = await provider.issueSession(userId).catch(mapIdentityError);
      return { session: await session(user, tokens) };
    },

    async requestMagicLink(req) {
      const email = parse(v.email, req.email);
      const redirectTo = parse(v.redirectPath, req.redirectTo);
      await mails.sendMagicLink(email, redirectTo);
      return {};
    },

    async consumeMagicLink(req) {
      const current = await account.magicLinkUser(req.token).catch(mapIdentityError);
      // Clicking a link mailed to the address proves the address, as the verification link does.
      if (!current.emailVerified) await provider.markEmailVerified(current.id).catch(mapIdentityError);
      const { user, tokens } = await provider.issueSession(current.id).catch(mapIdentityError);
      return { session: await session(user, tokens) };
    },

    async requestPasswordReset(req) {
      const email = parse(v.email, req.email);
      await mails.sendPasswordReset(email);
      return {};
    },

    async completePasswordReset(req) {
      const password = parse(v.password, req.password);
      const userId = await links.consume('reset', req.token);
      if (!userId) throw fail('invalid_link', MESSAGES.linkInvalid);
      await provider.setPassword(userId, password).catch(mapIdentityError);
      await links.spendAll('reset', userId);
      const user = await provider.getUser(userId);
      if (user && !user.emailVerified) await provider.markEmailVerified(userId).catch(mapIdentityError);
      return {};
    },

    async getMe(_req, ctx) {
      const principal = await caller(ctx.bearer);
      return me(principal.userId);
    },

    async updateMe(req, ctx) {
      const principal = await caller(ctx.bearer);
      await me(principal.userId);
      if (req.displayName !== undefined) {
        const displayName = parse(v.displayName, req.displayName);
        await profiles.setDisplayName(principal.userId, displayName);
        await provider.setName(principal.userId, displayName).catch(mapIdentityError);
      }
      if (req.releaseMails !== undefined || req.billingMails !== undefined)
        await profiles.setMailSettings(principal.userId, {
          releases: req.releaseMails,
          billing: req.billingMails,
        });
      return me(principal.userId);
    },

    ...accountHandlers({ account, links, caller, session }),

    async completeExternalSignIn(req) {
      const grant = parse(v.authorizationCodeGrant, {
        code: req.code,
        codeVerifier: req.codeVerifier,
        redirectUri: req.redirectUri,
      });
      const { user, tokens } = await provider.exchangeAuthorizationCode(grant).catch(mapIdentityError);
      // The first Google sign-in is the account's sign-up: the profile (named as Google names the person)
      // appears with `user.registered`, as for an email sign-up. Later sign-ins find it.
      await profiles.ensure(user, 'signup', user.name?.trim().slice(0, 80) ?? '');
      const handoffCode = await handoffs.issue(await session(user, tokens));
      return { handoffCode, expiresIn: HANDOFF_TTL_SECONDS };
    },

    async redeemHandoff(req) {
      const parked = await handoffs.redeem(req.code);
      if (!parked) throw fail('invalid_handoff', MESSAGES.handoffInvalid);
      return { session: parked };
    },

    async createAdmin(req) {
      const email = parse(v.email, req.email);
      const displayName = parse(v.displayName, req.displayName);
      const existing = await provider.findUserByEmail(email);
      if (existing) {
        const promoted = await provider.grantRole(existing.id, 'admin');
        await profiles.ensure(promoted, 'admin', displayName);
        return { user: userProto(promoted), created: false };
      }
      const password = parse(v.password, req.password);
      const user = await provider
        .createUser({ email, password, emailVerified: true, roles: ['artist', 'admin'] })
        .catch(mapIdentityError);
      await profiles.ensure(user, 'admin', displayName);
      if (displayName) await provider.setName(user.id, displayName);
      return { user: userProto(user), created: true };
    },
  });
}
