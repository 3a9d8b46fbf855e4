import { Button } from '@omni/ui';
import { Link } from 'react-router';
import { MarketingPage } from '../components/marketing-page';
import { PageHero } from '../components/page-hero';
import {
  MINIMUM_PAYOUT,
  PAYOUT_CYCLE_DAYS,
  PRESS_EMAIL,
  PRO_MONTHLY_PRICE,
  STORE_COUNT,
  usd,
} from '../content/facts';

const FACTS = [
  {
    term: 'What Omni is',
    detail: 'A music distribution platform for independent artists, labels and managers.',
  },
  { term: 'Stores', detail: `Delivery to ${STORE_COUNT} streaming and download stores.` },
  {
    term: 'Royalties',
    detail: `Artists keep 100%; payouts every ${PAYOUT_CYCLE_DAYS} days from ${usd(MINIMUM_PAYOUT)}.`,
  },
  {
    term: 'Plans',
    detail: `Free, Pro at ${usd(PRO_MONTHLY_PRICE)} a month, and Enterprise for labels and distributors.`,
  },
  { term: 'Launched', detail: '2025' },
] as const;

export default function PressPage() {
  return (
    <MarketingPage
      title="Press"
      description="Omni press information: the facts about the platform and how to reach our press team."
    >
      <PageHero
        eyebrow="Press"
        title="Press and media"
        lead="Writing about independent music or Omni? Here are the facts, and a direct line to us."
      >
        <Button asChild size="lg">
          <a href={`mailto:${PRESS_EMAIL}?subject=${encodeURIComponent('Press enquiry')}`}>
            Contact the press team
          </a>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/company">About Omni</Link>
        </Button>
      </PageHero>
      <section aria-labelledby="facts-title" className="container py-16">
        <h2 id="facts-title" className="text-3xl font-bold tracking-tight">
          Fact sheet
        </h2>
        <dl className="mt-8 divide-y rounded-lg border">
          {FACTS.map((fact) => (
            <div key={fact.term} className="grid gap-1 p-4 sm:grid-cols-3">
              <dt className="font-medium">{fact.term}</dt>
              <dd className="text-muted-foreground sm:col-span-2">{fact.detail}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-8 text-muted-foreground">
          Press enquiries:{' '}
          <a className="font-medium text-primary underline" href={`mailto:${PRESS_EMAIL}`}>
            {PRESS_EMAIL}
          </a>
          . We usually answer within 1 business day.
        </p>
      </section>
    </MarketingPage>
  );
}
