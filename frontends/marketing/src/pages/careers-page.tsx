import { Button } from '@omni/ui';
import { MarketingPage } from '../components/marketing-page';
import { PageHero } from '../components/page-hero';
import { CAREERS_EMAIL } from '../content/facts';

const AREAS = [
  {
    title: 'Engineering',
    text: 'Delivery pipelines, royalty accounting and the apps artists use every day.',
  },
  { title: 'Artist support', text: 'Helping artists and labels with releases, rights and payouts.' },
  { title: 'Content operations', text: 'Reviewing releases so they reach the stores right the first time.' },
] as const;

export default function CareersPage() {
  return (
    <MarketingPage
      title="Careers"
      description="Work at Omni: build the platform independent artists use to release music and get paid. Send us your CV."
    >
      <PageHero
        eyebrow="Careers"
        title="Build the home of independent music"
        lead="We're a small team that cares about artists getting paid fairly. We're not advertising specific openings right now, but we always want to hear from people who share that."
      >
        <Button asChild size="lg">
          <a href={`mailto:${CAREERS_EMAIL}?subject=${encodeURIComponent('Joining Omni')}`}>
            Send us your CV
          </a>
        </Button>
      </PageHero>
      <section aria-labelledby="areas-title" className="container py-16">
        <h2 id="areas-title" className="text-3xl font-bold tracking-tight">
          Where we work
        </h2>
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {AREAS.map((area) => (
            <li key={area.title} className="rounded-lg border p-6">
              <h3 className="font-semibold">{area.title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{area.text}</p>
            </li>
          ))}
        </ul>
        <p className="mt-10 text-muted-foreground">
          Write to{' '}
          <a className="font-medium text-primary underline" href={`mailto:${CAREERS_EMAIL}`}>
            {CAREERS_EMAIL}
          </a>{' '}
          with a few lines about you and the area that interests you. We reply to everyone.
        </p>
      </section>
    </MarketingPage>
  );
}
