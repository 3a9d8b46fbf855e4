import { getSessionStore } from '@omni/ui/session';
import { toast } from '../components/toaster';

let leaving = false;

/**
 * True between a successful sign-out and the navigation that follows it, so guarded pages don't
 * bounce the user to /login first (spec: sign-out goes to /). Each remote bundles the kit, so the flag
 * is the one the page's own guard reads when the app header (also from the kit) signs out.
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
    const message =
      error instanceof Error && error.message.trim() !== '' ? error.message : 'Please try again.';
    toast.error('Error signing out', { description: message });
    return false;
  } finally {
    // Let the navigation commit before guards look at the session again.
    setTimeout(() => {
      leaving = false;
    }, 0);
  }
}
