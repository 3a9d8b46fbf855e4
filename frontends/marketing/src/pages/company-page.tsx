import { Button } from '@omni/ui';
import { Link } from 'react-router';
import { MarketingPage } from '../components/marketing-page';
import { PageHero } from '../components/page-hero';

const TIMELINE = [
  {
    year: '1997',
    text: 'Our founders start out on the independent scene, pressing and selling records by hand.',
  },
  {
    year: '2010',
    text: 'Streaming takes over. We begin helping independent artists get their music into digital stores.',
  },
  {
    year: '2025',
    text: 'Omni launches: distribution, royalties and rights protection in one platform, with 100% of royalties to artists.',
  },
] as const;

const VALUES = [
  {
    title: 'Artists first',
    text: 'You own your music and keep what it earns. Our prices are plans, not a cut.',
  },
  { title: 'Plain numbers', text: 'Every price, payout threshold and timeline we quote is one we keep.' },
  {
    title: 'Independence',
    text: 'We build for people without a major behind them, because that is where we come from.',
  },
] as const;

export default function CompanyPage() {
  return (
    <MarketingPage
      title="About Omni"
      description="Omni's story from 1997 to today, the values we work by, and how to join the team or reach our press office."
    >
      <PageHero
        eyebrow="About"
        title="From the block to the blockchain"
        lead="We've spent our careers on the independent side of music. Omni is the platform we wished we'd had."
      >
        <Button asChild size="lg">
          <Link to="/careers">Careers</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/press">Press</Link>
        </Button>
      </PageHero>
      <section aria-labelledby="timeline-title" className="container py-16">
        <h2 id="timeline-title" className="text-3xl font-bold tracking-tight">
          Our story
        </h2>
        <ol className="mt-10 space-y-8 border-l-2 border-primary/30 pl-6">
          {TIMELINE.map((entry) => (
            <li key={entry.year} className="relative">
              <span
                className="absolute -left-[33px] top-1 h-4 w-4 rounded-full bg-primary"
                aria-hidden="true"
              />
              <h3 className="text-xl font-bold text-primary">{entry.year}</h3>
              <p className="mt-1 max-w-2xl text-muted-foreground">{entry.text}</p>
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="values-title" className="bg-muted/40">
        <div className="container py-16">
          <h2 id="values-title" className="text-3xl font-bold tracking-tight">
            What we value
          </h2>
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {VALUES.map((value) => (
              <li key={value.title} className="rounded-lg border bg-background p-6">
                <h3 className="font-semibold">{value.title}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{value.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </MarketingPage>
  );
}
