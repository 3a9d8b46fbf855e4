// How the identity provider's refusals reach the caller: each as the call's reason with identity's own
// message (the providers' messages are for logs).
import { fail, GrpcError, GrpcStatus } from '@omni/platform';
import { MESSAGES } from '../domain/messages';
import { IdentityError } from '../providers/identity/port';

/** Provider refusals → the call's reason and message; anything else is a 5xx with no details. */
export function mapIdentityError(err: unknown): never {
  if (err instanceof IdentityError) {
    switch (err.reason) {
      case 'invalid_credentials':
        throw fail('invalid_credentials', MESSAGES.invalidCredentials);
      case 'email_not_confirmed':
        throw fail('email_not_confirmed', MESSAGES.emailNotConfirmed);
      case 'email_taken':
        throw fail('email_taken', MESSAGES.emailTaken);
      case 'session_expired':
      case 'user_not_found':
        throw fail('session_expired', MESSAGES.sessionExpired);
      case 'weak_password':
        throw fail('invalid_request', MESSAGES.passwordTooShort);
      case 'external_sign_in_failed':
        throw fail('external_sign_in_failed', MESSAGES.externalSignInFailed);
      case 'not_supported':
        throw fail('not_supported', err.message);
      case 'unavailable':
        // Nothing was refused: the provider did not answer. The gateway answers UNAVAILABLE with a 503.
        throw new GrpcError(
          GrpcStatus.UNAVAILABLE,
          'Accounts are not available right now. Please try again shortly.',
        );
    }
  }
  throw err;
}

/**
 * The handlers, each answering the provider being down as UNAVAILABLE wherever it happens: a Me, a sign-out
 * or a magic-link request asks the provider too, with no refusal of its own to map.
 */
export function answerProviderOutages<H extends object>(handlers: H): H {
  const answered: Record<string, unknown> = {};
  for (const [name, handler] of Object.entries(handlers)) {
    answered[name] = (...args: unknown[]) =>
      (handler as (...a: unknown[]) => Promise<unknown>)(...args).catch((err: unknown) => {
        if (err instanceof IdentityError && err.reason === 'unavailable') mapIdentityError(err);
        throw err;
      });
  }
  return answered as H;
}
