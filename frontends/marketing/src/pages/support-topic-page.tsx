import { useLocation } from 'react-router';
import { MarketingPage } from '../components/marketing-page';
import { SupportCentre } from '../components/support-centre';
import { isSupportCategory, SUPPORT_CATEGORIES } from '../content/support-docs';

/** /support/{account|distribution|royalties|compliance|billing}: the help centre opened on that category. */
export default function SupportTopicPage() {
  const { pathname } = useLocation();
  const slug = pathname.split('/').filter(Boolean).at(-1);
  const category = isSupportCategory(slug) ? slug : undefined;
  const label = SUPPORT_CATEGORIES.find((c) => c.id === category)?.label ?? 'Help';
  return (
    <MarketingPage
      title={`${label} help`}
      description={`Omni help centre: ${label.toLowerCase()} guides and answers, and a ticket form if you need us.`}
    >
      <SupportCentre key={category} initialCategory={category} />
    </MarketingPage>
  );
}
