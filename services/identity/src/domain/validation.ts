// The spec's validation rules (section 5), checked again here although the gateway checks them too:
// every service defends its own boundary. The fields are the API contract's (the spec's messages, word for
// word), so the sign-in screens, the gateway and identity refuse the same input with the same sentence.
import { emailField, passwordField } from '@omni/proto/api';
import { z } from 'zod';

export const email = z.pipe(
  emailField,
  z.transform((e: string) => e.toLowerCase()),
);
export const password = passwordField;
export const displayName = z.string().trim().max(80, 'Display name must be at most 80 characters');
/** A same-origin path: '/uploader', never '//evil.example' or 'https://…' (an open redirect). */
export const redirectPath = z
  .string()
  .trim()
  .transform((p) => p || '/app')
  .pipe(
    z
      .string()
      .max(512)
      .regex(/^\/(?![/\\])[^\s]*$/, 'redirectTo must be a path on this site, like /app'),
  );

/** The gateway's Google callback: a code, its PKCE verifier (RFC 7636: 43-128 unreserved characters). */
export const authorizationCodeGrant = z.object({
  code: z.string().min(1, 'The sign-in code is missing.').max(4096),
  codeVerifier: z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/, 'The PKCE verifier is not valid.'),
  redirectUri: z.url('The redirect URI is not valid.').max(2048),
});
