import { toast } from '@omni/ui';

/** Signs out from a public page with the spec's toasts; resolves to whether it worked (then go to /). */
export async function signOut(): Promise<boolean> {
  try {
    const { getSessionStore } = await import('@omni/ui/session');
    await getSessionStore().signOut();
    toast.success('Signed out successfully', { announces: '/' });
    return true;
  } catch (error) {
    const message = error instanceof Error && error.message ? error.message : 'Please try again.';
    toast.error('Error signing out', { description: message });
    return false;
  }
}
