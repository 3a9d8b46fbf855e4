import { buttonVariants, useDocumentTitle } from '@omni/ui';
import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useReplacePrerenderedPage } from '../components/prerendered-page';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return 'Something went wrong while showing this page.';
}

/** The router's fallback when rendering a route throws (spec: 'Unexpected Application Error!'). */
export function RouteErrorPage() {
  const error = useRouteError();
  useDocumentTitle('Unexpected error');
  useReplacePrerenderedPage();

  useEffect(() => {
    console.error('[omni] route error', error);
  }, [error]);

  return (
    <main id="main" className="flex min-h-screen items-center justify-center px-6">
      <div className="max-w-lg text-center">
        <h1 className="text-2xl font-semibold">Unexpected Application Error!</h1>
        <p className="mt-3 break-words text-muted-foreground">{describe(error)}</p>
        <div className="mt-8 flex justify-center gap-3">
          <button type="button" className={buttonVariants()} onClick={() => window.location.reload()}>
            Reload page
          </button>
          {/* A full page load: the router itself may be what failed. */}
          <a href="/" className={buttonVariants({ variant: 'outline' })}>
            Return to Home
          </a>
        </div>
      </div>
    </main>
  );
}
