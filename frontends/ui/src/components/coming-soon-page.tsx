import type { ReactNode } from 'react';
import { useDocumentTitle } from '../lib/use-document-title';

interface ComingSoonPageProps {
  title: string;
  description?: string;
  children?: ReactNode;
}

/** A titled page whose full content is not built yet; keeps every route meaningful meanwhile. */
export function ComingSoonPage({ title, description, children }: ComingSoonPageProps) {
  useDocumentTitle(title);
  return (
    <section aria-labelledby="page-title" className="container py-16">
      <h1 id="page-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
        {title}
      </h1>
      {description ? <p className="mt-3 max-w-2xl text-lg text-muted-foreground">{description}</p> : null}
      <p className="mt-8 inline-flex rounded-md bg-muted px-4 py-2 text-sm text-muted-foreground">
        This page is coming soon.
      </p>
      {children}
    </section>
  );
}
