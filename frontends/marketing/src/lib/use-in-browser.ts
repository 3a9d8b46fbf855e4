import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * True when rendering in the browser, false when the page is rendered to HTML at build time
 * (src/prerender.tsx). For parts that only make sense with scripts running, like a countdown.
 */
export function useInBrowser(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
