import { consumeMagicLink, redeemHandoff, verifyEmail } from '@omni/ui';
import { toast } from '@omni/ui/toaster';

export type EmailLink = { kind: 'verify' | 'magic' | 'handoff'; token: string };

const messageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : 'This link could not be used. Please try again.';

/**
 * Spends the token (a toast says how it went) and resolves to whether the user is now signed in.
 * `started` is called once the request is out and the page's session says 'loading'.
 */
export async function consumeEmailLink(
  link: EmailLink,
  started: () => void = () => undefined,
): Promise<boolean> {
  if (link.kind === 'verify') {
    try {
      const signingIn = verifyEmail(link.token);
      started();
      const session = await signingIn;
      toast.success('Email verified', {
        description: `Welcome to Omni! You're signed in as ${session.user.email}.`,
        announces: '/app',
      });
      return true;
    } catch (error) {
      toast.error('Email verification failed', { description: messageOf(error) });
      return false;
    }
  }
  if (link.kind === 'handoff') {
    try {
      const signingIn = redeemHandoff(link.token);
      started();
      await signingIn;
      toast.success('Welcome back!');
      return true;
    } catch (error) {
      toast.error('Google sign-in failed', { description: messageOf(error), announces: '/login' });
      return false;
    }
  }
  try {
    const signingIn = consumeMagicLink(link.token);
    started();
    const session = await signingIn;
    toast.success('Signed in', { description: `You're signed in as ${session.user.email}.` });
    return true;
  } catch (error) {
    toast.error('Sign-in link not valid', { description: messageOf(error) });
    return false;
  }
}
