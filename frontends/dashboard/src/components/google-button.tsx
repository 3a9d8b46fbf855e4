import { Button, googleSignInUrl, toast } from '@omni/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../lib/error-message';
import { authProvidersQuery, useAuthProviders } from '../lib/use-auth-providers';

export const GOOGLE_NOT_SET_UP =
  'Google sign-in is not set up on this server. Use email and password or a magic link.';

function GoogleMark() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <path
        fill="#4285F4"
        d="M22.6 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h5.9a5 5 0 0 1-2.2 3.3v2.7h3.6c2-1.9 3.3-4.7 3.3-8.1z"
      />
      <path
        fill="#34A853"
        d="M12 23c3 0 5.5-1 7.3-2.7l-3.6-2.7c-1 .7-2.2 1-3.7 1-2.9 0-5.3-1.9-6.2-4.5H2.1v2.8A11 11 0 0 0 12 23z"
      />
      <path fill="#FBBC05" d="M5.8 14.1a6.6 6.6 0 0 1 0-4.2V7.1H2.1a11 11 0 0 0 0 9.8l3.7-2.8z" />
      <path
        fill="#EA4335"
        d="M12 5.4c1.6 0 3.1.6 4.2 1.7l3.2-3.2A11 11 0 0 0 2.1 7.1l3.7 2.8C6.7 7.3 9.1 5.4 12 5.4z"
      />
    </svg>
  );
}

/**
 * 'Continue with Google'. Where the server has no Google provider configured, the click explains
 * that in a toast instead of sending the user to an error page.
 */
export function GoogleButton({ redirectTo = '/app' }: { redirectTo?: string }) {
  const providers = useAuthProviders();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);

  async function onClick() {
    setBusy(true);
    try {
      const known = providers.data ?? (await queryClient.fetchQuery(authProvidersQuery));
      if (!known.google) {
        toast.error('Google sign-in unavailable', { description: GOOGLE_NOT_SET_UP });
        setBusy(false);
        return;
      }
      window.location.assign(googleSignInUrl(redirectTo));
    } catch (error) {
      toast.error(errorMessage(error, 'Google sign-in failed. Please try again.'));
      setBusy(false);
    }
  }

  return (
    <Button type="button" variant="outline" className="w-full" onClick={onClick} disabled={busy}>
      <GoogleMark />
      Continue with Google
    </Button>
  );
}
