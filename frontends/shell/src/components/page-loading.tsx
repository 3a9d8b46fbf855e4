import { Spinner } from '@omni/ui';
import { showingPrerenderedPage } from './prerendered-page';

/** Shown while a remote's code arrives, unless the server's rendering of the page is showing already. */
export function PageLoading() {
  if (showingPrerenderedPage()) return null;
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner label="Loading page…" />
    </div>
  );
}
