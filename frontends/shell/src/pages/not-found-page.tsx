import { buttonVariants, useDocumentTitle } from '@omni/ui';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { useReplacePrerenderedPage } from '../components/prerendered-page';

/** Any path no route claims (spec: 404, 'Oops! Page not found', Return to Home; the path is logged). */
export function NotFoundPage() {
  const location = useLocation();
  useDocumentTitle('Page not found');
  useReplacePrerenderedPage();

  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', location.pathname);
  }, [location.pathname]);

  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-muted/40 px-6">
      <div className="text-center">
        <p className="text-6xl font-bold tracking-tight text-primary" aria-hidden="true">
          404
        </p>
        <h1 className="mt-4 text-2xl font-semibold">
          <span className="sr-only">404: </span>Oops! Page not found
        </h1>
        <p className="mt-2 text-muted-foreground">The page you’re looking for doesn’t exist or has moved.</p>
        <Link to="/" className={buttonVariants({ className: 'mt-8' })}>
          Return to Home
        </Link>
      </div>
    </main>
  );
}
