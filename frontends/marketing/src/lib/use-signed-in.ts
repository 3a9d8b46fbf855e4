import { useEffect, useState } from 'react';
import { hasStoredSession } from './session';
import { useInBrowser } from './use-in-browser';

/**
 * Whether the visitor is signed in, for the header: null while the page is rendered at build time
 * (nobody is anybody there; the header then carries both variants, see SessionActions). In the
 * browser the first answer is what this browser remembers, so the first frame is already right;
 * then the page's session store (loaded after the first paint) keeps it current: a sign-in on this
 * page through an emailed link, a sign-out, another tab.
 */
export function useSignedIn(): boolean | null {
  const inBrowser = useInBrowser();
  const [signedIn, setSignedIn] = useState(() => typeof window !== 'undefined' && hasStoredSession());
  useEffect(() => {
    let stop = () => {};
    let cancelled = false;
    import('@omni/ui/session')
      .then(({ getSessionStore }) => {
        if (cancelled) return;
        const store = getSessionStore();
        // 'loading' is a remembered session being renewed: still signed in.
        const update = () => setSignedIn(store.getState().status !== 'signed-out');
        update();
        stop = store.subscribe(update);
      })
      .catch(() => undefined); // the remembered answer stands
    return () => {
      cancelled = true;
      stop();
    };
  }, []);
  return inBrowser ? signedIn : null;
}
