import { Outlet, ScrollRestoration } from 'react-router';
import { EmailLinkGate } from '../session/email-links';
import { LazyToaster } from './lazy-toaster';

/**
 * The frame around every page: remotes render their own header, main and footer inside it. The skip
 * link is in index.html, so it is there before any script runs (also over a prerendered page).
 */
export function ShellLayout() {
  return (
    <>
      <EmailLinkGate>
        <Outlet />
      </EmailLinkGate>
      <ScrollRestoration />
      <LazyToaster />
    </>
  );
}
