import { useLocation } from 'react-router';
import { MarketingPlaceholder } from '../components/placeholder';

const TOPICS: Record<string, string> = {
  account: 'Account',
  distribution: 'Distribution',
  royalties: 'Royalties',
  compliance: 'Compliance',
  billing: 'Billing',
};

/** /support/{account|distribution|royalties|compliance|billing}: one page, titled by the path. */
export default function SupportTopicPage() {
  const { pathname } = useLocation();
  const topic = TOPICS[pathname.split('/').filter(Boolean).at(-1) ?? ''] ?? 'Help';
  return (
    <MarketingPlaceholder
      title={`${topic} support`}
      description={`Guides and answers about ${topic.toLowerCase()}. Can’t find what you need? Open a ticket from the Support page.`}
    />
  );
}
