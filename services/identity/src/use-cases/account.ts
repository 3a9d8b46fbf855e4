// What a signed-in person changes on their own account (spec §3.5 of issue 21, the /account page): the
// password, the email (proven by a link mailed to the new address before it takes effect) and deleting the
// account. Each step that could hand the account to someone holding only a stolen session asks for the
// current password first. Also the magic link that creates an account for a new address on first use.
import { randomBytes } from 'node:crypto';
import { fail } from '@omni/platform';
import { MESSAGES } from '../domain/messages';
import { IdentityError, type IdentityProvider, type IdentityUser } from '../providers/identity/port';
import type { LinkTokens } from '../store/link-tokens';
import type { Profiles } from '../store/profiles';
import type { linkMails } from './link-mails';

export interface AccountDeps {
  provider: IdentityProvider;
  links: LinkTokens;
  profiles: Profiles;
  mails: ReturnType<typeof linkMails>;
}

/** What a person types to confirm deleting the account. */
export const DELETE_CONFIRMATION = 'DELETE';

export function accountUseCases({ provider, links, profiles, mails }: AccountDeps) {
  const userOf = async (userId: string): Promise<IdentityUser> => {
    const user = await provider.getUser(userId);
    if (!user) throw fail('session_expired', MESSAGES.sessionExpired);
    return user;
  };

  /** The current password, checked by signing in with it (the provider's own check, both providers). */
  const checkPassword = async (user: IdentityUser, password: string) => {
    if (!password) throw fail('invalid_request', MESSAGES.currentPasswordRequired);
    try {
      await provider.signInWithPassword(user.email, password).then(({ tokens }) =>
        // The check made a session of its own: end it at once, it was only a proof.
        provider.signOut(tokens.refreshToken),
      );
    } catch (err) {
      if (err instanceof IdentityError && err.reason === 'invalid_credentials')
        throw fail('wrong_password', MESSAGES.currentPasswordWrong);
      // A right password on an unconfirmed address still proves who is asking.
      if (err instanceof IdentityError && err.reason === 'email_not_confirmed') return;
      throw err;
    }
  };

  return {
    checkPassword: async (userId: string, password: string) => checkPassword(await userOf(userId), password),

    /** A new password (the current one first); every session ends, and this browser gets a new one. */
    async changePassword(userId: string, current: string, next: string) {
      const user = await userOf(userId);
      await checkPassword(user, current);
      await provider.setPassword(user.id, next);
      await mails.passwordChanged(user.email);
      return provider.issueSession(user.id);
    },

    /** Mails a link to the new address; the account's email stays until it is followed. */
    async requestEmailChange(userId: string, newEmail: string, password: string) {
      const user = await userOf(userId);
      await checkPassword(user, password);
      if (newEmail === user.email) throw fail('invalid_request', MESSAGES.emailUnchanged);
      // Said to a signed-in person who proved the password: a clear answer beats a link that fails later.
      if (await provider.findUserByEmail(newEmail)) throw fail('email_taken', MESSAGES.emailTaken);
      await mails.sendEmailChange(user, newEmail);
    },

    /** The new address is proven: it becomes the account's, and the old one hears about it. */
    async confirmEmailChange(token: string) {
      const link = await links.spend('email', token);
      if (!link?.email) throw fail('invalid_link', MESSAGES.linkInvalid);
      const before = await userOf(link.userId);
      const after = await provider.setEmail(link.userId, link.email);
      if (before.email !== after.email) await mails.emailChanged(before.email, after.email);
      return provider.issueSession(after.id);
    },

    async deleteAccount(userId: string, password: string, confirmation: string) {
      const user = await userOf(userId);
      if (confirmation.trim() !== DELETE_CONFIRMATION)
        throw fail('invalid_request', MESSAGES.deleteConfirmation);
      await checkPassword(user, password);
      await provider.deleteUser(user.id);
      await profiles.remove(user.id);
    },

    /**
     * The account a magic link signs in: its user, or (a link mailed to an address with no account) a new
     * account for that address, verified since following the link proves it. The password is random and
     * never shown: the person signs in by link, or chooses one with "Forgot password".
     */
    async magicLinkUser(token: string): Promise<IdentityUser> {
      const link = await links.spend('magic', token);
      if (!link) throw fail('invalid_link', MESSAGES.linkInvalid);
      if (link.userId) {
        // The account may have been deleted since the link was mailed: the link is what no longer works.
        const user = await provider.getUser(link.userId);
        if (!user) throw fail('invalid_link', MESSAGES.linkInvalid);
        return user;
      }
      if (!link.email) throw fail('invalid_link', MESSAGES.linkInvalid);
      const existing = await provider.findUserByEmail(link.email);
      if (existing) return existing;
      try {
        const created = await provider.createUser({
          email: link.email,
          password: randomBytes(24).toString('base64url'),
          emailVerified: true,
        });
        await profiles.ensure(created, 'signup');
        return created;
      } catch (err) {
        // Signed up the usual way between the mail and the click: that account is this address's.
        if (err instanceof IdentityError && err.reason === 'email_taken') {
          const now = await provider.findUserByEmail(link.email);
          if (now) return now;
        }
        throw err;
      }
    },
  };
}
