// Words the identity API answers with (the expired-session one is the kit's token verifier's, so a person
// reads one sentence whichever token ran out). The gateway passes them on unchanged; what it switches on
// is the reason each refusal carries (platform grpc/reasons.ts), never these sentences.
import { SESSION_EXPIRED } from '@omni/platform';
import { AUTH_MESSAGES } from '@omni/proto/api';

export const MESSAGES = {
  accountCreated: 'Account created!',
  emailTaken: 'An account with this email already exists.',
  invalidCredentials: 'Invalid email or password.',
  passwordTooShort: AUTH_MESSAGES.passwordTooShort,
  emailNotConfirmed: 'Email not confirmed',
  sessionExpired: SESSION_EXPIRED,
  linkInvalid: 'This link has expired or was already used. Request a new one.',
  externalSignInFailed: 'Sign-in did not complete. Please try again.',
  currentPasswordRequired: 'Enter your current password.',
  currentPasswordWrong: 'Your current password is not right.',
  emailUnchanged: 'This is already your email.',
  emailChangeSent: 'We sent a link to your new address. Your email changes when you follow it.',
  deleteConfirmation: 'Type DELETE to confirm.',
  resetLinkUnusable: 'This reset link has expired or was already used. Request a new one below.',
  handoffInvalid: 'This sign-in has expired or was already used. Please sign in again.',
} as const;
