import { toast } from '@omni/ui';
import { getSessionStore } from '@omni/ui/session';
import { errorMessage } from './error-message';

let leaving = false;

/**
 * True between a successful sign-out and the navigation that follows it, so guarded pages don't
 * bounce the user to /login first (spec: sign-out goes to /).
 */
export const isSigningOut = (): boolean => leaving;

/** Signs out (revoking the refresh token) with the spec's toasts; resolves to whether it worked. */
export async function signOutWithToast(then?: () => void): Promise<boolean> {
  leaving = true;
  try {
    await getSessionStore().signOut();
    // Shown on the way to / (spec), where it stays.
    toast.success('Signed out successfully', { announces: '/' });
    then?.();
    return true;
  } catch (error) {
    toast.error('Error signing out', { description: errorMessage(error, 'Please try again.') });
    return false;
  } finally {
    // Let the navigation commit before guards look at the session again.
    setTimeout(() => {
      leaving = false;
    }, 0);
  }
}
