// The mails identity sends. Plain words, one link each; the HTML is the text with the link made a button.
// Links are built from PUBLIC_URL so they land on Omni's own screens whatever the identity provider.
import type { MailMessage } from '../providers/mail/port';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function mail(
  to: string,
  subject: string,
  intro: string,
  action: string,
  link: string,
  outro: string,
): MailMessage {
  return {
    to,
    subject,
    text: `${intro}\n\n${action}: ${link}\n\n${outro}\n\n— Omni`,
    html: `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#7c3aed;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p><p style="color:#666">${escapeHtml(outro)}</p><p>— Omni</p>`,
  };
}

export const verificationMail = (to: string, link: string) =>
  mail(
    to,
    'Confirm your email for Omni',
    'Welcome to Omni! Please confirm your email address to finish creating your account.',
    'Confirm email',
    link,
    'The link works once and for 24 hours. If you did not sign up, ignore this email.',
  );

export const magicLinkMail = (to: string, link: string, newAccount = false) =>
  newAccount
    ? mail(
        to,
        'Your Omni sign-in link',
        'No Omni account uses this address yet: this link creates one for it and signs you in. Nothing is created until you follow it.',
        'Create my account and sign in',
        link,
        'The link works once and for 15 minutes. If you did not ask for it, ignore this email: no account is created.',
      )
    : mail(
        to,
        'Your Omni sign-in link',
        'Use this link to sign in to Omni.',
        'Sign in',
        link,
        'The link works once and for 15 minutes. If you did not ask for it, ignore this email.',
      );

export const emailChangeMail = (to: string, link: string) =>
  mail(
    to,
    'Confirm your new email for Omni',
    'You asked to use this address for your Omni account. Your account keeps its old address until you confirm.',
    'Confirm new email',
    link,
    'The link works once and for 24 hours. If you did not ask for it, ignore this email: nothing changes.',
  );

/** To the old address once the change is done: whoever lost it must learn, and can take the account back. */
export const emailChangedMail = (to: string, newEmail: string, resetLink: string) =>
  mail(
    to,
    'Your Omni email was changed',
    `The email of your Omni account is now ${newEmail}; this address no longer signs in.`,
    'Not you? Reset your password',
    resetLink,
    'If you made this change, there is nothing to do.',
  );

export const passwordChangedMail = (to: string, resetLink: string) =>
  mail(
    to,
    'Your Omni password was changed',
    'The password of your Omni account was just changed, and every other session was signed out.',
    'Not you? Reset your password',
    resetLink,
    'If you made this change, there is nothing to do.',
  );

export const passwordResetMail = (to: string, link: string) =>
  mail(
    to,
    'Reset your Omni password',
    'Someone (hopefully you) asked to reset the password of your Omni account.',
    'Choose a new password',
    link,
    'The link works once and for 30 minutes. If you did not ask for it, ignore this email: your password stays as it is.',
  );
