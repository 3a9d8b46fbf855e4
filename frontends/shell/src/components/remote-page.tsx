import { type ComponentType, type ReactNode, useEffect, useState } from 'react';
import { matchPath, useLocation } from 'react-router';
import { loadRemotePage } from '../federation/federation';
import { type RemoteName, remoteRoutes } from '../routes/route-table';
import { PageLoading } from './page-loading';
import { useReplacePrerenderedPage } from './prerendered-page';
import { RemoteBoundary } from './remote-boundary';

/** A remote page and the context every remote page may rely on (react-query). */
interface PageCode {
  Providers: ComponentType<{ children: ReactNode }>;
  Page: ComponentType;
}

/** Loads in flight or done, one per exposed module. */
const loads = new Map<string, Promise<PageCode>>();
/** Pages whose code is here: they render at once, with no loading frame. */
const loaded = new Map<string, PageCode>();

/**
 * A remote page's code, wrapped with what every page needs, fetched once. The page's code and the
 * providers it needs (react-query) download in parallel, not one after the other. A failed load is
 * forgotten, so visiting the route again retries instead of replaying the rejection.
 */
function loadPage(remote: RemoteName, expose: string): Promise<PageCode> {
  const key = `${remote}:${expose}`;
  let load = loads.get(key);
  if (!load) {
    load = Promise.all([import('./remote-providers'), loadRemotePage(remote, expose)]).then(
      ([{ default: Providers }, { default: Page }]) => {
        const code = { Providers, Page };
        loaded.set(key, code);
        return code;
      },
    );
    load.catch(() => loads.delete(key));
    loads.set(key, load);
  }
  return load;
}

/**
 * Starts loading the page a path will show, before it is rendered (e.g. while an emailed link is being
 * spent, so that both wait together rather than one after the other). Failures are left to the route.
 */
export function preloadPage(pathname: string): void {
  const route = remoteRoutes.find(({ path }) => matchPath(path, pathname));
  if (route) loadPage(route.remote, route.expose).catch(() => undefined);
}

type Outcome = { code: PageCode } | { error: unknown };

function LoadedPage({ code: { Providers, Page } }: { code: PageCode }) {
  useReplacePrerenderedPage();
  return (
    <Providers>
      <Page />
    </Providers>
  );
}

/**
 * Shows the loading frame until the page's code is here, then the page. Deliberately not React.lazy
 * under <Suspense>: React holds back the reveal of suspended content until 300 ms after the fallback
 * appeared (it throttles Suspense reveals to avoid flicker), so every first visit to a remote page
 * waited up to 300 ms with its code already loaded. A state update renders as soon as the code is in.
 */
function RemotePageContent({ remote, expose }: { remote: RemoteName; expose: string }) {
  const [outcome, setOutcome] = useState<Outcome | undefined>(() => {
    const code = loaded.get(`${remote}:${expose}`);
    return code ? { code } : undefined;
  });
  useEffect(() => {
    if (outcome) return;
    let current = true;
    loadPage(remote, expose).then(
      (code) => current && setOutcome({ code }),
      (error: unknown) => current && setOutcome({ error }),
    );
    return () => {
      current = false;
    };
  }, [outcome, remote, expose]);
  if (!outcome) return <PageLoading />;
  // Thrown while rendering, so RemoteBoundary shows its fallback, as for a page that fails to render.
  if ('error' in outcome) throw outcome.error;
  return <LoadedPage code={outcome.code} />;
}

/** A route element rendering a page exposed by a remote, loaded the first time the route is visited. */
export function RemotePage({ remote, expose }: { remote: RemoteName; expose: string }) {
  const { pathname } = useLocation();
  return (
    <RemoteBoundary key={pathname}>
      {/* Keyed by module: another route's page is another component with its own loading state. */}
      <RemotePageContent key={`${remote}:${expose}`} remote={remote} expose={expose} />
    </RemoteBoundary>
  );
}
