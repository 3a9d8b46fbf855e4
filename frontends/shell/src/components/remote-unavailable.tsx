import { buttonVariants } from '@omni/ui';
import { CloudOff } from 'lucide-react';
import { useReplacePrerenderedPage } from './prerendered-page';

/** Shown in place of a page whose remote could not be loaded: explains, and offers a way forward. */
export function RemoteUnavailable() {
  useReplacePrerenderedPage();
  return (
    <main
      id="main"
      className="container flex min-h-[60vh] flex-col items-center justify-center py-16 text-center"
      data-testid="remote-unavailable"
    >
      <CloudOff className="h-12 w-12 text-muted-foreground" aria-hidden="true" />
      <h1 className="mt-6 text-2xl font-semibold">This part of Omni is temporarily unavailable</h1>
      <p className="mt-2 max-w-md text-muted-foreground">
        We couldn’t load this page just now. Please try again in a moment; the rest of Omni keeps working.
      </p>
      <div className="mt-6 flex gap-3">
        <button type="button" className={buttonVariants()} onClick={() => window.location.reload()}>
          Try again
        </button>
        <a href="/" className={buttonVariants({ variant: 'outline' })}>
          Return to Home
        </a>
      </div>
    </main>
  );
}
