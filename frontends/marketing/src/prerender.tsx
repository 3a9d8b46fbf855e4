// The public pages rendered to HTML at build time (Node, not the browser). The gateway puts a page's
// HTML in the first response for its route, so a visitor sees the page as soon as the HTML and the
// stylesheets arrive, without waiting for the shell and this remote's JavaScript to download and run;
// the shell swaps in the live page when it is ready (shell/src/components/prerendered-page.ts).
// Search engines and visitors without JavaScript get the content too.
//
// Only pages whose content is known at build time are here: /music and /videos show published assets
// and render in the browser. Built by frontends/rspack.prerender.mjs into dist/prerender.json.

// The router the pages' links need, in memory at the page's URL. From the same module the
// 'react-router' facade re-exports, so the pages' <Link>s find this router's context.
import { MemoryRouter } from '@omni/react-router-impl';
import { createQueryClient, type PageMeta, PageMetaCollector } from '@omni/ui';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { SUPPORT_CATEGORIES } from './content/support-docs';
import ArtistsPage from './pages/artists-page';
import CareersPage from './pages/careers-page';
import CompanyPage from './pages/company-page';
import ContactSalesPage from './pages/contact-sales-page';
import DemoPage from './pages/demo-page';
import FeaturesPage from './pages/features-page';
import HomePage from './pages/home-page';
import LabelsPage from './pages/labels-page';
import ManagersPage from './pages/managers-page';
import PressPage from './pages/press-page';
import PricingPage from './pages/pricing-page';
import SecurityPage from './pages/security-page';
import SupportPage from './pages/support-page';
import SupportTopicPage from './pages/support-topic-page';

interface PageToRender {
  path: string;
  /** The expose the shell loads for this path (exposes.mjs): its code and styles are preloaded. */
  expose: string;
  Page: ComponentType;
  /** Query parameters that change what the page shows; any other parameter (utm_*, …) does not. */
  query?: Record<string, string>;
}

const PAGES: readonly PageToRender[] = [
  { path: '/', expose: './HomePage', Page: HomePage },
  { path: '/features', expose: './FeaturesPage', Page: FeaturesPage },
  { path: '/pricing', expose: './PricingPage', Page: PricingPage },
  { path: '/artists', expose: './ArtistsPage', Page: ArtistsPage },
  { path: '/labels', expose: './LabelsPage', Page: LabelsPage },
  { path: '/managers', expose: './ManagersPage', Page: ManagersPage },
  { path: '/security', expose: './SecurityPage', Page: SecurityPage },
  { path: '/support', expose: './SupportPage', Page: SupportPage },
  ...SUPPORT_CATEGORIES.map(({ id }) => ({
    path: `/support/${id}`,
    expose: './SupportTopicPage',
    Page: SupportTopicPage,
  })),
  { path: '/company', expose: './CompanyPage', Page: CompanyPage },
  { path: '/demo', expose: './DemoPage', Page: DemoPage },
  { path: '/careers', expose: './CareersPage', Page: CareersPage },
  { path: '/press', expose: './PressPage', Page: PressPage },
  { path: '/contact-sales', expose: './ContactSalesPage', Page: ContactSalesPage, query: { type: '' } },
  { path: '/contact-sales', expose: './ContactSalesPage', Page: ContactSalesPage, query: { type: 'dpa' } },
];

export interface PrerenderedPage extends PageMeta {
  path: string;
  expose: string;
  /** Parameter → value this rendering is for ('' = absent); parameters not named here are ignored. */
  query: Record<string, string>;
  html: string;
}

/** A page that cannot render without a browser fails the build naming itself and the usual cause. */
function renderOrExplain(path: string, render: () => string): string {
  try {
    return render();
  } catch (error) {
    throw new Error(
      `Prerendering ${path} failed: ${(error as Error).message}. Pages render at build time in Node, where ` +
        'window, document and localStorage do not exist: use them in effects or event handlers, not while rendering.',
      { cause: error },
    );
  }
}

export function renderPages(): PrerenderedPage[] {
  return PAGES.map(({ path, expose, Page, query = {} }) => {
    const search = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== '')).toString();
    let meta: PageMeta | undefined;
    const html = renderOrExplain(path, () =>
      renderToString(
        <MemoryRouter initialEntries={[search ? `${path}?${search}` : path]}>
          <QueryClientProvider client={createQueryClient()}>
            <PageMetaCollector.Provider value={(collected) => (meta = collected)}>
              <Page />
            </PageMetaCollector.Provider>
          </QueryClientProvider>
        </MemoryRouter>,
      ),
    );
    if (!meta) throw new Error(`${path} rendered without a title and description (usePageMeta)`);
    return { path, expose, query, html, ...meta };
  });
}
