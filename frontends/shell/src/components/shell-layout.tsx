import { Outlet, ScrollRestoration } from 'react-router';
import { EmailLinks } from '../session/email-links';
import { LazyToaster } from './lazy-toaster';

/** The frame around every page: remotes render their own header, main and footer inside it. */
export function ShellLayout() {
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-background focus:px-4 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <Outlet />
      <ScrollRestoration />
      <LazyToaster />
      <EmailLinks />
    </>
  );
}
