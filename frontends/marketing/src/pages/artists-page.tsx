import { Button } from '@omni/ui';
import { BarChart3, FileCheck2, Upload } from 'lucide-react';
import { Link } from 'react-router';
import { FeatureList } from '../components/feature-list';
import { MarketingPage } from '../components/marketing-page';
import { PageHero } from '../components/page-hero';
import { ARTWORK_SIZE, REVIEW_WINDOW, STORE_COUNT } from '../content/facts';

const STEPS = [
  {
    title: 'Upload',
    text: `Your audio, cover artwork (${ARTWORK_SIZE}, JPG or PNG) and the details of the release. Choose the stores, or send it to all ${STORE_COUNT}.`,
    Icon: Upload,
  },
  {
    title: 'Metadata checks',
    text: `Titles, credits and artwork are checked before delivery, so stores don't reject your release. Review takes ${REVIEW_WINDOW}.`,
    Icon: FileCheck2,
  },
  {
    title: 'Earnings tracking',
    text: 'See what each release earns, store by store and month by month, from the stores’ own statements. You keep 100%.',
    Icon: BarChart3,
  },
] as const;

export default function ArtistsPage() {
  return (
    <MarketingPage
      title="For artists"
      description={`Release your music to ${STORE_COUNT} stores, check your metadata before it ships, track your earnings and keep 100% of your royalties.`}
    >
      <PageHero
        eyebrow="Artists"
        title="Your music, everywhere, on your terms"
        lead="Independent artists use Omni to get their releases into stores and get paid for every stream, without giving up a share."
      >
        <Button asChild size="lg">
          <Link to="/signup">Create Account</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/music">Browse Music</Link>
        </Button>
      </PageHero>
      <FeatureList id="steps-title" title="How it works" features={STEPS} />
    </MarketingPage>
  );
}
