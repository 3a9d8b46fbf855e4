import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@omni/ui';
import { Wallet } from 'lucide-react';
import { MarketingPage } from '../components/marketing-page';
import { PricingPlans } from '../components/pricing-plans';
import {
  MINIMUM_PAYOUT,
  PAYOUT_CYCLE_DAYS,
  PRO_ANNUAL_PRICE,
  PRO_MONTHLY_PRICE,
  ROYALTY_SHARE,
  usd,
} from '../content/facts';
import { FAQ, REVENUE_STREAMS } from '../content/pricing';

export default function PricingPage() {
  return (
    <MarketingPage
      title="Pricing"
      description={`Omni plans: Free at $0, Pro at ${usd(PRO_MONTHLY_PRICE)} a month or ${usd(PRO_ANNUAL_PRICE)} a year, and Enterprise. 100% of royalties on every plan; payouts from ${usd(MINIMUM_PAYOUT)} every ${PAYOUT_CYCLE_DAYS} days.`}
    >
      <section aria-labelledby="page-title" className="bg-gradient-to-b from-primary/10 to-background">
        <div className="container py-16 sm:py-20">
          <h1 id="page-title" className="text-center text-4xl font-extrabold tracking-tight sm:text-5xl">
            Choose your lane
          </h1>
          <p className="mx-auto mt-4 max-w-2xl text-center text-lg text-muted-foreground">
            Every plan pays you 100% of your royalties. Pick the tools you need.
          </p>
          <div className="mt-10">
            <PricingPlans />
          </div>
        </div>
      </section>

      <section aria-labelledby="share-title" className="container py-16">
        <h2 id="share-title" className="text-3xl font-bold tracking-tight">
          Your revenue share
        </h2>
        <p className="mt-3 max-w-2xl text-muted-foreground">
          What the stores pay for your music is yours, in every revenue stream.
        </p>
        <ul className="mt-8 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5" data-testid="revenue-share">
          {REVENUE_STREAMS.map((stream) => (
            <li key={stream} className="rounded-lg border p-6 text-center">
              <p className="text-3xl font-bold text-primary">{ROYALTY_SHARE}</p>
              <p className="mt-1 text-sm text-muted-foreground">{stream}</p>
            </li>
          ))}
        </ul>
        <aside
          aria-labelledby="payout-title"
          className="mt-8 flex flex-col gap-4 rounded-lg border border-primary/30 bg-primary/5 p-6 sm:flex-row sm:items-center"
        >
          <Wallet className="h-10 w-10 shrink-0 text-primary" aria-hidden="true" />
          <div>
            <h3 id="payout-title" className="text-lg font-semibold">
              Minimum payout: {usd(MINIMUM_PAYOUT)}
            </h3>
            <p className="text-muted-foreground">
              Balances of {usd(MINIMUM_PAYOUT)} or more are paid on a {PAYOUT_CYCLE_DAYS}-day cycle. Anything
              less carries over to the next cycle.
            </p>
          </div>
        </aside>
      </section>

      <section aria-labelledby="faq-title" className="bg-muted/40">
        <div className="container max-w-3xl py-16">
          <h2 id="faq-title" className="text-3xl font-bold tracking-tight">
            Frequently asked questions
          </h2>
          <Accordion type="single" collapsible className="mt-8">
            {FAQ.map((item, index) => (
              <AccordionItem key={item.question} value={`faq-${index}`}>
                <AccordionTrigger>{item.question}</AccordionTrigger>
                <AccordionContent>{item.answer}</AccordionContent>
              </AccordionItem>
            ))}
          </Accordion>
        </div>
      </section>
    </MarketingPage>
  );
}
