import { usePageMeta } from '@omni/ui';
import type { ReactNode } from 'react';
import { SiteLayout } from './site-layout';

interface MarketingPageProps {
  /** Tab title ("<title> · Omni"); undefined gives the site's own title (home). */
  title: string | undefined;
  /** Meta description: what a search result or a link preview says about the page. */
  description: string;
  children: ReactNode;
  /** A fixed bar along the bottom of the window (the home countdown). */
  bottomBar?: ReactNode;
}

/** A public page: its title and description, inside the site's header and footer. */
export function MarketingPage({ title, description, children, bottomBar }: MarketingPageProps) {
  usePageMeta({ title, description });
  return <SiteLayout bottomBar={bottomBar}>{children}</SiteLayout>;
}
