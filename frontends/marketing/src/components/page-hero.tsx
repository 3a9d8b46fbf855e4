import type { ReactNode } from 'react';

interface PageHeroProps {
  eyebrow?: string;
  title: string;
  lead: ReactNode;
  children?: ReactNode;
}

/** The top of a static page: the page's only h1, a lead paragraph, and its main actions. */
export function PageHero({ eyebrow, title, lead, children }: PageHeroProps) {
  return (
    <section aria-labelledby="page-title" className="border-b bg-gradient-to-b from-primary/10 to-background">
      <div className="container py-16 sm:py-24">
        {eyebrow ? (
          <p className="text-sm font-semibold uppercase tracking-wider text-primary">{eyebrow}</p>
        ) : null}
        <h1 id="page-title" className="mt-2 max-w-3xl text-4xl font-extrabold tracking-tight sm:text-5xl">
          {title}
        </h1>
        <p className="mt-6 max-w-2xl text-lg text-muted-foreground">{lead}</p>
        {children ? <div className="mt-8 flex flex-wrap gap-3">{children}</div> : null}
      </div>
    </section>
  );
}
