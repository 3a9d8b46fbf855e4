// Sign-out lives in the UI kit with the app header that offers it; the dashboard's guards read the same
// flag (one copy of the kit per remote bundle).
export { isSigningOut, signOutWithToast } from '@omni/ui';
