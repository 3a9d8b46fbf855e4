// The mails that carry identity's single-use links (verification, magic link, password reset). Asked for
// an address, the answer is the same whether an account has it or not: the mail is sent (or not) after,
// and a mail that fails to go is logged, never reported (that would reveal the account).
import type { Logger } from '@omni/platform';
import {
  emailChangedMail,
  emailChangeMail,
  magicLinkMail,
  passwordChangedMail,
  passwordResetMail,
  verificationMail,
} from '../domain/mails';
import type { IdentityProvider, IdentityUser } from '../providers/identity/port';
import type { Mailer } from '../providers/mail/port';
import type { LinkTokens } from '../store/link-tokens';

export interface LinkMailDeps {
  provider: IdentityProvider;
  links: LinkTokens;
  mailer: Mailer;
  publicUrl: string;
  logger: Logger;
}

export function linkMails({ provider, links, mailer, publicUrl, logger }: LinkMailDeps) {
  const linkTo = (path: string, param: string, token: string) => {
    const url = new URL(path, publicUrl);
    url.searchParams.set(param, token);
    return url.toString();
  };

  const sendQuietly = (what: string, send: () => Promise<void>) =>
    send().catch((err: unknown) => logger.warn({ err: (err as Error).name, what }, 'could not send mail'));

  const verify = (user: IdentityUser) =>
    sendQuietly('verification', async () => {
      const token = await links.issue('verify', user.id);
      await mailer.send(verificationMail(user.email, linkTo('/login', 'verify', token)));
    });

  return {
    /** After sign-up: the link that confirms the address. */
    sendVerification: verify,

    /** Again, for an account whose address is not confirmed yet. */
    async resendVerification(email: string) {
      const user = await provider.findUserByEmail(email);
      if (user && !user.emailVerified) await verify(user);
    },

    /**
     * A link that signs the account in and lands on `redirectTo`. For an address no account has, the link
     * creates the account when followed (spec: the provider's magic link signs up on first use), so a
     * contributor without an account can sign in from /upload; nothing is created until then, so asking
     * for strangers' addresses makes no accounts.
     */
    async sendMagicLink(email: string, redirectTo: string) {
      const user = await provider.findUserByEmail(email);
      await sendQuietly('magic link', async () => {
        const token = user ? await links.issue('magic', user.id) : await links.issue('magic', '', email);
        await mailer.send(magicLinkMail(user?.email ?? email, linkTo(redirectTo, 'magic', token), !user));
      });
    },

    /** To the new address of an email change; the address changes when this link is followed. */
    async sendEmailChange(user: IdentityUser, newEmail: string) {
      const token = await links.issue('email', user.id, newEmail);
      // Not quiet: the caller is signed in and asked for this address, so a failure is theirs to know.
      await mailer.send(emailChangeMail(newEmail, linkTo('/account', 'email-change', token)));
    },

    /** Security notices: always sent, whatever the mail settings. */
    emailChanged: (oldEmail: string, newEmail: string) =>
      sendQuietly('email changed notice', () =>
        mailer.send(emailChangedMail(oldEmail, newEmail, new URL('/forgot-password', publicUrl).toString())),
      ),
    passwordChanged: (email: string) =>
      sendQuietly('password changed notice', () =>
        mailer.send(passwordChangedMail(email, new URL('/forgot-password', publicUrl).toString())),
      ),

    /** A link to choose a new password. */
    async sendPasswordReset(email: string) {
      const user = await provider.findUserByEmail(email);
      if (!user) return;
      await sendQuietly('password reset', async () => {
        const token = await links.issue('reset', user.id);
        await mailer.send(passwordResetMail(user.email, linkTo('/forgot-password', 'reset', token)));
      });
    },
  };
}
