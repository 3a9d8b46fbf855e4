import { getSessionStore, type SessionState } from '@omni/ui/session';
import { useSyncExternalStore } from 'react';

const subscribe = (listener: () => void) => getSessionStore().subscribe(listener);
const snapshot = () => getSessionStore().getState();

/** The page's session; re-renders when it changes (sign-in, refresh, sign-out, another tab). */
export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
