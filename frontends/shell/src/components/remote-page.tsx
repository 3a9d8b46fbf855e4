import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';
import { useLocation } from 'react-router';
import { loadRemotePage, type RemoteName } from '../federation/federation';
import { PageLoading } from './page-loading';
import { useReplacePrerenderedPage } from './prerendered-page';
import { RemoteBoundary } from './remote-boundary';

const cache = new Map<string, LazyExoticComponent<ComponentType>>();

/**
 * One lazy component per exposed module, created once so React keeps it between renders. The page's
 * code and the providers it needs (react-query) download in parallel, not one after the other. A
 * failed load is forgotten, so visiting the route again retries instead of replaying the rejection.
 */
function lazyRemote(remote: RemoteName, expose: string): LazyExoticComponent<ComponentType> {
  const key = `${remote}:${expose}`;
  let component = cache.get(key);
  if (!component) {
    component = lazy(async () => {
      try {
        const [{ default: RemoteProviders }, { default: Page }] = await Promise.all([
          import('./remote-providers'),
          loadRemotePage(remote, expose),
        ]);
        return {
          default: function LoadedRemotePage() {
            useReplacePrerenderedPage();
            return (
              <RemoteProviders>
                <Page />
              </RemoteProviders>
            );
          },
        };
      } catch (error) {
        cache.delete(key);
        throw error;
      }
    });
    cache.set(key, component);
  }
  return component;
}

/** A route element rendering a page exposed by a remote, loaded the first time the route is visited. */
export function RemotePage({ remote, expose }: { remote: RemoteName; expose: string }) {
  const { pathname } = useLocation();
  const Page = lazyRemote(remote, expose);
  return (
    <RemoteBoundary key={pathname}>
      <Suspense fallback={<PageLoading />}>
        <Page />
      </Suspense>
    </RemoteBoundary>
  );
}
