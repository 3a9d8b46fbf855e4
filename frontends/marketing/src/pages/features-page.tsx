import { Button } from '@omni/ui';
import { Globe2, Headphones, Layers, ShieldCheck, Wallet } from 'lucide-react';
import { Link } from 'react-router';
import { CallToAction } from '../components/call-to-action';
import { FeatureList } from '../components/feature-list';
import { MarketingPage } from '../components/marketing-page';
import { PageHero } from '../components/page-hero';
import {
  MINIMUM_PAYOUT,
  PAYOUT_CYCLE_DAYS,
  PRESELECTED_STORE_COUNT,
  STORE_COUNT,
  usd,
} from '../content/facts';

const TOOLS = [
  {
    title: 'Catalog management',
    text: 'Singles, EPs, albums and compilations with their artist profiles, artwork and metadata, checked before they ship.',
    Icon: Layers,
  },
  {
    title: 'Distribution engine',
    text: `Pick from ${STORE_COUNT} stores (the ${PRESELECTED_STORE_COUNT} most popular are preselected) and we queue a delivery to each one. ISRCs and UPCs are assigned for you.`,
    Icon: Globe2,
  },
  {
    title: 'Royalties and payouts',
    text: `Smart splits, expense tracking and recoupment. Balances from ${usd(MINIMUM_PAYOUT)} are paid every ${PAYOUT_CYCLE_DAYS} days, and you keep 100%.`,
    Icon: Wallet,
  },
  {
    title: 'Control',
    text: 'Roles for every collaborator and dual approvals for the changes that matter, such as splits and takedowns.',
    Icon: ShieldCheck,
    comingSoon: true,
  },
  {
    title: 'Support services',
    text: 'Consultations, contract templates and copyright services from people who know the music business.',
    Icon: Headphones,
  },
] as const;

export default function FeaturesPage() {
  return (
    <MarketingPage
      title="Features"
      description={`Omni's tools: catalog management, delivery to ${STORE_COUNT} stores, royalty splits and payouts, roles and dual approvals, and support services.`}
    >
      <PageHero
        eyebrow="Tools"
        title="Every tool a release needs"
        lead="From the first upload to the last payout, Omni keeps your catalog, your stores and your money in one place."
      >
        <Button asChild size="lg">
          <Link to="/demo">Book a Demo</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/pricing">View Pricing</Link>
        </Button>
      </PageHero>
      <FeatureList id="tools-title" title="What's inside" features={TOOLS} />
      <CallToAction
        id="demo-title"
        title="See it with your own catalog"
        text="A 30-minute walkthrough with our team, answering your questions as we go."
      >
        <Button asChild size="lg" variant="secondary">
          <Link to="/demo">Book a Demo</Link>
        </Button>
      </CallToAction>
    </MarketingPage>
  );
}
