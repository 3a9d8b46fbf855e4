import { MarketingPlaceholder } from '../components/placeholder';

export default function PricingPage() {
  return (
    <MarketingPlaceholder
      title="Choose your lane"
      description="Start free, go Pro for $12.99 a month, or talk to us about Enterprise. Minimum payout $100, paid every 30 days."
    />
  );
}
