import type { ReactNode } from 'react';

/** A closing band with a headline and the page's next step. */
export function CallToAction({
  id,
  title,
  text,
  children,
}: {
  id: string;
  title: string;
  text: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="bg-primary text-primary-foreground">
      <div className="container flex flex-col items-start gap-6 py-16 md:flex-row md:items-center md:justify-between">
        <div>
          <h2 id={id} className="text-3xl font-bold tracking-tight">
            {title}
          </h2>
          <p className="mt-2 max-w-xl text-primary-foreground/90">{text}</p>
        </div>
        <div className="flex flex-wrap gap-3">{children}</div>
      </div>
    </section>
  );
}
