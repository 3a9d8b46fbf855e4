import { Badge, Card, CardDescription, CardHeader, CardTitle } from '@omni/ui';
import type { LucideIcon } from 'lucide-react';

export interface Feature {
  title: string;
  text: string;
  Icon: LucideIcon;
  /** Not built yet (issue 21 §3.13): the card says 'Coming soon' rather than present it as available. */
  comingSoon?: boolean;
}

/** A titled grid of feature cards; the heading names the list for screen readers. */
export function FeatureList({
  id,
  title,
  intro,
  features,
}: {
  id: string;
  title: string;
  intro?: string;
  features: readonly Feature[];
}) {
  return (
    <section aria-labelledby={id} className="container py-16 sm:py-20">
      <h2 id={id} className="text-3xl font-bold tracking-tight">
        {title}
      </h2>
      {intro ? <p className="mt-3 max-w-2xl text-muted-foreground">{intro}</p> : null}
      <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {features.map(({ title: cardTitle, text, Icon, comingSoon }) => (
          <li key={cardTitle}>
            <Card
              className="h-full"
              data-testid="feature-card"
              data-coming-soon={comingSoon ? 'true' : undefined}
            >
              <CardHeader>
                <span className="mb-2 inline-flex h-10 w-10 items-center justify-center rounded-md bg-primary/10 text-primary">
                  <Icon className="h-5 w-5" aria-hidden="true" />
                </span>
                <CardTitle className="flex flex-wrap items-center gap-2">
                  {cardTitle}
                  {comingSoon ? (
                    <Badge variant="outline" className="text-xs font-medium">
                      Coming soon
                    </Badge>
                  ) : null}
                </CardTitle>
                <CardDescription>{text}</CardDescription>
              </CardHeader>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
