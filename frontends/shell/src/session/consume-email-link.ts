import { consumeMagicLink, redeemHandoff, verifyEmail } from '@omni/ui';
import { toast } from '@omni/ui/toaster';
import type { NavigateFunction } from 'react-router';

export type EmailLink = { kind: 'verify' | 'magic' | 'handoff'; token: string };

const messageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : 'This link could not be used. Please try again.';

/**
 * Spends the token. Verification signs in and goes to /app; a magic link, and the handoff code the
 * Google callback sends back, sign in on the page they land on (the user is already there).
 */
export async function consumeEmailLink(link: EmailLink, navigate: NavigateFunction): Promise<void> {
  if (link.kind === 'verify') {
    try {
      const session = await verifyEmail(link.token);
      toast.success('Email verified', {
        description: `Welcome to Omni! You're signed in as ${session.user.email}.`,
        announces: '/app',
      });
      navigate('/app', { replace: true });
    } catch (error) {
      toast.error('Email verification failed', { description: messageOf(error) });
    }
    return;
  }
  if (link.kind === 'handoff') {
    // Back from Google: the page the sign-in started from is where the user already is.
    try {
      await redeemHandoff(link.token);
      toast.success('Welcome back!');
    } catch (error) {
      toast.error('Google sign-in failed', { description: messageOf(error), announces: '/login' });
      navigate('/login', { replace: true });
    }
    return;
  }
  try {
    const session = await consumeMagicLink(link.token);
    toast.success('Signed in', { description: `You're signed in as ${session.user.email}.` });
  } catch (error) {
    toast.error('Sign-in link not valid', { description: messageOf(error) });
  }
}
