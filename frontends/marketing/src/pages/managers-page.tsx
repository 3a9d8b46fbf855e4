import { Button } from '@omni/ui';
import { FileSpreadsheet, LayoutDashboard, LockKeyhole } from 'lucide-react';
import { Link } from 'react-router';
import { FeatureList } from '../components/feature-list';
import { MarketingPage } from '../components/marketing-page';
import { PageHero } from '../components/page-hero';

const TOOLS = [
  {
    title: 'Portfolio dashboards',
    text: 'Every artist you manage on one screen: releases, streams and earnings side by side.',
    Icon: LayoutDashboard,
    comingSoon: true,
  },
  {
    title: 'Permission scoping',
    text: 'Give each person access to exactly the artists and actions they need, and nothing more.',
    Icon: LockKeyhole,
    comingSoon: true,
  },
  {
    title: 'Exportable summaries',
    text: 'Download earnings and release summaries for your artists, your accountant or your next meeting.',
    Icon: FileSpreadsheet,
    comingSoon: true,
  },
] as const;

export default function ManagersPage() {
  return (
    <MarketingPage
      title="For managers"
      description="Omni for managers: portfolio dashboards, scoped permissions and exportable summaries for every artist you manage."
    >
      <PageHero
        eyebrow="Managers"
        title="Every artist you manage, at a glance"
        lead="Keep releases moving and everyone informed, without sharing passwords or chasing spreadsheets."
      >
        <Button asChild size="lg">
          <Link to="/signup">Get Started</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/features">Explore Features</Link>
        </Button>
      </PageHero>
      <FeatureList id="manager-tools-title" title="Built for managers" features={TOOLS} />
    </MarketingPage>
  );
}
