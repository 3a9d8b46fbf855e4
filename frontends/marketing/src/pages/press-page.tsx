import { MarketingPlaceholder } from '../components/placeholder';

export default function PressPage() {
  return <MarketingPlaceholder title="Press" description="News, brand assets and media contacts." />;
}
