// zod's mini build: the same schemas in a few kilobytes; the classic build's chainable API costs every
// dashboard page about 100 KB of script to parse and run before it can show anything.
// The fields and their messages (spec section 5, word for word) are the API contract's: the gateway
// refuses with the same ones.
import { AUTH_MESSAGES, emailField as email, passwordField as password } from '@omni/proto/api';
import * as z from 'zod/mini';

export { MIN_PASSWORD_LENGTH } from '@omni/proto/api';

export const loginSchema = z.object({ email, password });
export type LoginValues = z.infer<typeof loginSchema>;

const passwordsMatch = {
  check: (values: { password: string; confirmPassword: string }) =>
    values.password === values.confirmPassword,
  params: { message: AUTH_MESSAGES.passwordsDontMatch, path: ['confirmPassword'] },
};

/** Sign-up: the login rules plus a confirmation that must match. */
export const signupSchema = z
  .object({ email, password, confirmPassword: z.string() })
  .check(z.refine(passwordsMatch.check, passwordsMatch.params));
export type SignupValues = z.infer<typeof signupSchema>;

/** The new password from a reset link: same rules, same confirmation. */
export const newPasswordSchema = z
  .object({ password, confirmPassword: z.string() })
  .check(z.refine(passwordsMatch.check, passwordsMatch.params));
export type NewPasswordValues = z.infer<typeof newPasswordSchema>;

export const emailOnlySchema = z.object({ email });
export type EmailOnlyValues = z.infer<typeof emailOnlySchema>;

/** The first message of a failed validation, in the order the fields appear on the form. */
export function firstErrorMessage(
  errors: Partial<Record<string, { message?: string | undefined } | undefined>>,
  fieldOrder: readonly string[],
): string | null {
  for (const field of fieldOrder) {
    const message = errors[field]?.message;
    if (message) return message;
  }
  return null;
}
