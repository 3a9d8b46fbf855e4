import { useSyncExternalStore } from 'react';

/** Below the spec's 768 px breakpoint the sidebar becomes a sheet. */
const QUERY = '(max-width: 767px)';

const subscribe = (onChange: () => void) => {
  const list = window.matchMedia(QUERY);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
};

export const useIsMobile = (): boolean =>
  useSyncExternalStore(
    subscribe,
    () => window.matchMedia(QUERY).matches,
    () => false,
  );
