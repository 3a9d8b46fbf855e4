// Words the identity API answers with, written here only. The gateway passes them on unchanged; what it
// switches on is the reason each refusal carries (platform grpc/reasons.ts), never these sentences.
export const MESSAGES = {
  accountCreated: 'Account created!',
  emailTaken: 'An account with this email already exists.',
  invalidCredentials: 'Invalid email or password.',
  passwordTooShort: 'Password must be at least 6 characters',
  emailNotConfirmed: 'Email not confirmed',
  sessionExpired: 'Your session has expired. Please sign in again.',
  linkInvalid: 'This link has expired or was already used. Request a new one.',
  externalSignInFailed: 'Sign-in did not complete. Please try again.',
  handoffInvalid: 'This sign-in has expired or was already used. Please sign in again.',
} as const;
