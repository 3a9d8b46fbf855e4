// The fields of the /api/auth bodies, as the sign-in screens check them and the gateway parses them.
// Identity, which owns accounts, judges the rest (an email already taken, a wrong password).
import * as z from 'zod/mini';
import { AUTH_MESSAGES, MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './messages';

export const emailField = z.pipe(
  z
    .string({ error: AUTH_MESSAGES.invalidEmail })
    .check(z.trim(), z.maxLength(MAX_EMAIL_LENGTH, AUTH_MESSAGES.invalidEmail)),
  z.email(AUTH_MESSAGES.invalidEmail),
);

export const passwordField = z
  .string({ error: AUTH_MESSAGES.passwordTooShort })
  .check(
    z.minLength(MIN_PASSWORD_LENGTH, AUTH_MESSAGES.passwordTooShort),
    z.maxLength(MAX_PASSWORD_LENGTH, AUTH_MESSAGES.passwordTooLong),
  );

export const credentialsRequest = z.object({ email: emailField, password: passwordField });
export const emailOnlyRequest = z.object({ email: emailField });
