import type { ReactNode } from 'react';
import '../styles.css';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/**
 * Header, main landmark and footer shared by every public page. `bottomBar` is a fixed bar (the
 * home countdown); the layout leaves room under the footer so the bar never hides it.
 */
export function SiteLayout({ children, bottomBar }: { children: ReactNode; bottomBar?: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <main id="main" className="flex-1" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
      {bottomBar ? (
        <>
          <div className="h-32 sm:h-16" aria-hidden="true" />
          {bottomBar}
        </>
      ) : null}
    </div>
  );
}
