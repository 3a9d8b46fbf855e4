import { Button, Card, CardDescription, CardHeader, CardTitle } from '@omni/ui';
import {
  ArrowRight,
  BarChart3,
  CreditCard,
  Globe2,
  Headphones,
  Layers,
  ShieldCheck,
  Upload,
  UserRound,
  Users,
  Wallet,
} from 'lucide-react';
import { Link } from 'react-router';
import { CallToAction } from '../components/call-to-action';
import { CountdownBar } from '../components/countdown-bar';
import { FeatureList } from '../components/feature-list';
import { HeroParticles } from '../components/hero-particles';
import { MarketingPage } from '../components/marketing-page';
import { PricingPlans } from '../components/pricing-plans';
import { StartFreeButton } from '../components/start-free-button';
import {
  HOME_COUNTDOWN_SECONDS,
  MINIMUM_PAYOUT,
  PAYOUT_CYCLE_DAYS,
  PRESELECTED_STORE_COUNT,
  STORE_COUNT,
  usd,
} from '../content/facts';

const FEATURES = [
  {
    title: 'Core Feature',
    text: 'Catalog management for singles, albums, compilations and artist profiles, in one place.',
    Icon: Layers,
  },
  {
    title: 'Analytics',
    text: 'Streams and earnings on your dashboard, by month, store, territory, release and track.',
    Icon: BarChart3,
  },
  {
    title: 'Teamwork',
    text: 'Invite collaborators and give each of them the right role.',
    Icon: Users,
    comingSoon: true,
  },
  {
    title: 'Distribution',
    text: `Direct delivery to ${STORE_COUNT} streaming and download stores.`,
    Icon: Globe2,
  },
  {
    title: 'Monetization',
    text: 'Smart splits, automated payouts, expense tracking and recoupment. 100% of royalties to you.',
    Icon: Wallet,
  },
  {
    title: 'Support',
    text: 'Support around the clock, consultations, contract templates and copyright services.',
    Icon: Headphones,
  },
] as const;

const CATEGORIES = [
  { label: 'Account', text: 'Sign in to your account', to: '/login', Icon: UserRound },
  { label: 'Distribution', text: 'Upload a release', to: '/artist-upload', Icon: Upload },
  { label: 'Royalties', text: 'Your earnings dashboard', to: '/app', Icon: Wallet },
  { label: 'Compliance', text: 'Security and trust', to: '/security', Icon: ShieldCheck },
  { label: 'Billing', text: 'Plans and prices', to: '/pricing', Icon: CreditCard },
] as const;

const REACH = [
  { value: String(STORE_COUNT), label: 'stores we deliver to' },
  { value: String(PRESELECTED_STORE_COUNT), label: 'most popular, preselected for you' },
  { value: '100%', label: 'of royalties paid to artists' },
  { value: `${PAYOUT_CYCLE_DAYS} days`, label: `payout cycle, from ${usd(MINIMUM_PAYOUT)}` },
] as const;

export default function HomePage() {
  return (
    <MarketingPage
      title={undefined}
      bottomBar={<CountdownBar seconds={HOME_COUNTDOWN_SECONDS} />}
      description={`Omni delivers your music to ${STORE_COUNT} stores, splits royalties with your collaborators and pays you 100% of what you earn. Free to start.`}
    >
      <section
        aria-labelledby="hero-title"
        className="relative min-h-[500px] overflow-hidden bg-gradient-to-b from-primary/10 to-background"
      >
        <HeroParticles />
        <div className="container relative flex min-h-[500px] flex-col items-center justify-center py-12 text-center">
          <p className="text-sm font-semibold uppercase tracking-wider text-primary">
            Music distribution for independents
          </p>
          <h1 id="hero-title" className="mt-3 max-w-3xl text-4xl font-extrabold tracking-tight sm:text-6xl">
            From the block to the blockchain
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-muted-foreground">
            Release to {STORE_COUNT} stores, protect your rights and keep 100% of your royalties. Built for
            independent artists, labels and managers.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Button asChild size="lg">
              <Link to="/signup">Launch your release</Link>
            </Button>
            {/* No demo video exists (the old button opened a YouTube search, issue 21 §3.14): a person shows
                Omni instead, on a live walkthrough booked on /demo. */}
            <Button asChild size="lg" variant="outline">
              <Link to="/demo">Book a live demo</Link>
            </Button>
          </div>
        </div>
      </section>

      <FeatureList
        id="features-title"
        title="Everything you need to release music"
        intro="One account for your catalog, your team, your stores and your money."
        features={FEATURES}
      />

      <section aria-labelledby="artists-title" className="bg-muted/40">
        <div className="container grid gap-10 py-16 sm:py-20 lg:grid-cols-2 lg:items-center">
          <div>
            <h2 id="artists-title" className="text-3xl font-bold tracking-tight">
              Made for artists who run their own careers
            </h2>
            <p className="mt-4 text-muted-foreground">
              Upload a single on your own schedule, check your metadata before it reaches the stores, and see
              what every release earns. Labels and managers get the same tools across every artist they work
              with.
            </p>
            <div className="mt-6 flex flex-wrap gap-3">
              <Button asChild>
                <Link to="/artists">For artists</Link>
              </Button>
              <Button asChild variant="outline">
                <Link to="/labels">For labels</Link>
              </Button>
              <Button asChild variant="outline">
                <Link to="/managers">For managers</Link>
              </Button>
            </div>
          </div>
          <ul className="grid gap-4 sm:grid-cols-2">
            {['Upload in minutes', 'Metadata checks', 'Earnings tracking', 'Your rights, protected'].map(
              (item, index) => (
                <li key={item} className="rounded-lg border bg-background p-5">
                  <span className="text-sm font-semibold text-primary" aria-hidden="true">
                    0{index + 1}
                  </span>
                  <p className="mt-1 font-medium">{item}</p>
                </li>
              ),
            )}
          </ul>
        </div>
      </section>

      <section aria-labelledby="reach-title" className="container py-16 sm:py-20">
        <h2 id="reach-title" className="text-3xl font-bold tracking-tight">
          Global reach
        </h2>
        <p className="mt-3 max-w-2xl text-muted-foreground">
          From the biggest streaming services to regional stores, one upload reaches listeners everywhere.
        </p>
        <dl className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {REACH.map((item) => (
            <div key={item.label} className="flex flex-col rounded-lg border p-6">
              <dt className="text-sm text-muted-foreground">{item.label}</dt>
              <dd className="order-first text-4xl font-bold text-primary">{item.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="browse-title" className="bg-muted/40">
        <div className="container py-16 sm:py-20">
          <h2 id="browse-title" className="text-3xl font-bold tracking-tight">
            Browse by category
          </h2>
          <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-5" data-testid="browse-categories">
            {CATEGORIES.map(({ label, text, to, Icon }) => (
              <li key={label}>
                <Link
                  to={to}
                  className="group block h-full rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <Card className="h-full transition-colors group-hover:border-primary">
                    <CardHeader>
                      <Icon className="h-6 w-6 text-primary" aria-hidden="true" />
                      <CardTitle className="text-base">{label}</CardTitle>
                      <CardDescription>{text}</CardDescription>
                    </CardHeader>
                  </Card>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="pricing-title" className="container py-16 sm:py-20">
        <h2 id="pricing-title" className="text-center text-3xl font-bold tracking-tight">
          Simple pricing
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-center text-muted-foreground">
          Start free and upgrade when you need more. Every plan pays you 100% of your royalties.
        </p>
        <div className="mt-10">
          <PricingPlans />
        </div>
        <p className="mt-8 text-center">
          <Link
            to="/pricing"
            className="inline-flex items-center gap-1 font-medium text-primary hover:underline"
          >
            Compare plans and read the FAQ <ArrowRight className="h-4 w-4" aria-hidden="true" />
          </Link>
        </p>
      </section>

      <CallToAction
        id="start-title"
        title="Your next release starts here"
        text="Create a free account and send your first release for review today."
      >
        <StartFreeButton />
      </CallToAction>
    </MarketingPage>
  );
}
