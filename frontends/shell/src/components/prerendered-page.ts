// The gateway may send a page already rendered at build time inside #omni-prerender (see
// services/gateway/src/http/prerendered-pages.ts). It stays on screen while the page's code loads,
// in place of a spinner, and goes in the same frame the live page (or an error) first shows.
import { useLayoutEffect } from 'react';

const PRERENDER_ID = 'omni-prerender';

/** True while the server's rendering of the page is still on screen. */
export function showingPrerenderedPage(): boolean {
  return document.getElementById(PRERENDER_ID) !== null;
}

/**
 * Call in whatever replaces the prerendered page. A layout effect runs after React has put its page
 * into the DOM and before the browser paints, so the visitor never sees both or neither.
 */
export function useReplacePrerenderedPage(): void {
  useLayoutEffect(() => {
    document.getElementById(PRERENDER_ID)?.remove();
  }, []);
}
