// Words the identity API answers with. The gateway passes them on unchanged and maps a few to the stable
// `code` the web app switches on (see services/gateway/src/http/auth.ts).
export const MESSAGES = {
  accountCreated: 'Account created!',
  emailTaken: 'An account with this email already exists.',
  invalidCredentials: 'Invalid email or password.',
  emailNotConfirmed: 'Email not confirmed',
  sessionExpired: 'Your session has expired. Please sign in again.',
  linkInvalid: 'This link has expired or was already used. Request a new one.',
  signInRequired: 'Please sign in to continue.',
  externalSignInFailed: 'Sign-in did not complete. Please try again.',
  handoffInvalid: 'This sign-in has expired or was already used. Please sign in again.',
} as const;
