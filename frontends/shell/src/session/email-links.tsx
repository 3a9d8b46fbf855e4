import { type ReactNode, useEffect, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageLoading } from '../components/page-loading';
import { preloadPage } from '../components/remote-page';
import type { EmailLink } from './consume-email-link';

/** Where a verification link leaves the user (spec: sign-up's email redirect is /app). */
const AFTER_VERIFICATION = '/app';

/**
 * The page under a link from the address bar: shown, held back (a spinner instead) while the link is
 * being spent, or about to move to where the spent link leads.
 */
type LinkState = { phase: 'none' } | { phase: 'holding' } | { phase: 'going'; to: string };

let state: LinkState = { phase: 'none' };
const listeners = new Set<() => void>();
const setState = (next: LinkState) => {
  state = next;
  for (const listener of [...listeners]) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => state;
const release = () => {
  if (state.phase === 'holding') setState({ phase: 'none' });
};

function linkIn(params: URLSearchParams): EmailLink | null {
  const verify = params.get('verify');
  const magic = params.get('magic');
  const handoff = params.get('handoff');
  if (verify) return { kind: 'verify', token: verify };
  if (magic) return { kind: 'magic', token: magic };
  if (handoff) return { kind: 'handoff', token: handoff };
  return null;
}

/**
 * Where the user goes once the link is spent, or null to stay. Verification signs in and opens /app; a
 * magic link, and the handoff code the Google callback sends back, sign in on the page they land on
 * (the page the sign-in started from); a failed Google sign-in goes back to /login.
 */
function nextPath(link: EmailLink, signedIn: boolean): string | null {
  if (link.kind === 'verify') return signedIn ? AFTER_VERIFICATION : null;
  if (link.kind === 'handoff') return signedIn ? null : '/login';
  return null;
}

/**
 * Links from emails land on any route with `?verify=<token>` (email confirmation) or `?magic=<token>`
 * (magic-link sign-in); the Google callback lands with `?handoff=<code>`. Call once at start-up, before
 * the router reads the address: the token leaves the address bar at once (a reload or a shared URL
 * must not replay it) and is spent right away, while the page the link leads to loads alongside
 * rather than after the shell has rendered. `?reset=` is not handled here: /forgot-password reads it.
 *
 * The page is held back until it can render right: a magic link's page once the session says
 * 'loading' (so /app does not send the visitor to /login first, and the page's code loads meanwhile);
 * a verification link's page not at all, since it leads elsewhere: the user goes to /app once
 * verified (the login form is never loaded) or stays on the page it named if the link failed.
 */
export function spendEmailLinkInAddress(): void {
  const url = new URL(window.location.href);
  const link = linkIn(url.searchParams);
  if (!link) return;
  for (const name of ['verify', 'magic', 'handoff']) url.searchParams.delete(name);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  setState({ phase: 'holding' });
  preloadPage(link.kind === 'verify' ? AFTER_VERIFICATION : url.pathname);
  import('./consume-email-link')
    .then(({ consumeEmailLink }) => consumeEmailLink(link, link.kind === 'verify' ? undefined : release))
    .catch((error: unknown) => {
      console.error('[omni] could not handle the email link', error);
      return false;
    })
    .then((signedIn) => {
      const to = nextPath(link, signedIn);
      if (to) setState({ phase: 'going', to });
      else release();
    });
}

/** Wraps the routed page: holds it back while a link is being spent, then moves it where the link leads. */
export function EmailLinkGate({ children }: { children: ReactNode }) {
  const current = useSyncExternalStore(subscribe, snapshot, snapshot);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useEffect(() => {
    if (current.phase !== 'going') return;
    // The router applies a navigation in a transition, after this render: the page is shown only once
    // the address is the destination, or the link's own route (/login) would render and load meanwhile.
    if (pathname === current.to) setState({ phase: 'none' });
    else navigate(current.to, { replace: true });
  }, [current, pathname, navigate]);
  return current.phase === 'none' ? children : <PageLoading />;
}
