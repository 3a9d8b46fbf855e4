import { Button } from '@omni/ui';
import { BarChart3, Building2, CheckCheck } from 'lucide-react';
import { Link } from 'react-router';
import { FeatureList } from '../components/feature-list';
import { MarketingPage } from '../components/marketing-page';
import { PageHero } from '../components/page-hero';
import { STORE_COUNT } from '../content/facts';

const TOOLS = [
  {
    title: 'Sub-labels',
    text: 'Run imprints under one account, each with its own artists, catalog and team.',
    Icon: Building2,
    comingSoon: true,
  },
  {
    title: 'Approvals and takedowns',
    text: 'Releases and takedowns go out only after the right people approve them, with dual approval for the sensitive ones.',
    Icon: CheckCheck,
  },
  {
    title: 'Roll-up analytics',
    text: `Streams and earnings across every artist and all ${STORE_COUNT} stores, rolled up by label and by imprint.`,
    Icon: BarChart3,
    comingSoon: true,
  },
] as const;

export default function LabelsPage() {
  return (
    <MarketingPage
      title="For labels"
      description="Omni for labels: sub-labels, approvals and takedowns, and roll-up analytics across your whole roster."
    >
      <PageHero
        eyebrow="Labels"
        title="One roster, one dashboard"
        lead="Manage every artist, imprint and release from one place, with approvals that keep your catalog right."
      >
        <Button asChild size="lg">
          <Link to="/signup">Get Started</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/pricing">View Pricing</Link>
        </Button>
      </PageHero>
      <FeatureList id="label-tools-title" title="Built for labels" features={TOOLS} />
    </MarketingPage>
  );
}
