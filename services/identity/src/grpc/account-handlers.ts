// The account page's calls (issue 21 §3.5, §3.11): each checks the caller's token, then hands over to
// use-cases/account.ts. Split from server.ts to keep each adapter file small; the user and profile as
// the contract carries them live here for both.
import { fail, type Principal, parseWith, type UnaryImpl } from '@omni/platform';
import type { identity } from '@omni/proto';
import { MESSAGES } from '../domain/messages';
import * as v from '../domain/validation';
import type { IdentityUser, TokenSet } from '../providers/identity/port';
import type { LinkTokens } from '../store/link-tokens';
import { mailSettingsOf, type ProfileDoc } from '../store/profiles';
import type { accountUseCases } from '../use-cases/account';
import { mapIdentityError } from './provider-errors';

export const userProto = (u: IdentityUser): identity.User => ({
  id: u.id,
  email: u.email,
  emailVerified: u.emailVerified,
  roles: u.roles,
});

export const profileProto = (profile: ProfileDoc): identity.Profile => {
  const mail = mailSettingsOf(profile);
  return { displayName: profile.displayName, releaseMails: mail.releases, billingMails: mail.billing };
};

type AccountCalls =
  | 'checkLink'
  | 'confirmPassword'
  | 'changePassword'
  | 'requestEmailChange'
  | 'confirmEmailChange'
  | 'deleteAccount';

export function accountHandlers(deps: {
  account: ReturnType<typeof accountUseCases>;
  links: LinkTokens;
  caller: (bearer: string | undefined) => Promise<Principal>;
  session: (user: IdentityUser, tokens: TokenSet) => Promise<identity.Session>;
}): Pick<UnaryImpl<typeof identity.IdentityServiceService>, AccountCalls> {
  const { account, links, caller, session } = deps;
  const parse = <T>(schema: Parameters<typeof parseWith>[0], value: unknown) =>
    parseWith(schema, value, { first: true }) as T;
  return {
    async checkLink(req) {
      // Only the reset page asks; the other links are spent as soon as their page opens.
      if (req.purpose !== 'reset') throw fail('invalid_request', 'Only reset links can be checked.');
      if (!(await links.usable('reset', req.token))) throw fail('invalid_link', MESSAGES.resetLinkUnusable);
      return {};
    },

    async confirmPassword(req, ctx) {
      const principal = await caller(ctx.bearer);
      await account.checkPassword(principal.userId, req.password).catch(mapIdentityError);
      return {};
    },

    async changePassword(req, ctx) {
      const principal = await caller(ctx.bearer);
      const next = parse<string>(v.password, req.newPassword);
      const { user, tokens } = await account
        .changePassword(principal.userId, req.currentPassword, next)
        .catch(mapIdentityError);
      return { session: await session(user, tokens) };
    },

    async requestEmailChange(req, ctx) {
      const principal = await caller(ctx.bearer);
      const newEmail = parse<string>(v.email, req.newEmail);
      await account.requestEmailChange(principal.userId, newEmail, req.password).catch(mapIdentityError);
      return {};
    },

    async confirmEmailChange(req) {
      const { user, tokens } = await account.confirmEmailChange(req.token).catch(mapIdentityError);
      return { session: await session(user, tokens) };
    },

    async deleteAccount(req, ctx) {
      const principal = await caller(ctx.bearer);
      await account.deleteAccount(principal.userId, req.password, req.confirmation).catch(mapIdentityError);
      return {};
    },
  };
}
