import { MarketingPlaceholder } from '../components/placeholder';

export default function DemoPage() {
  return (
    <MarketingPlaceholder
      title="Book a Demo"
      description="See how Omni delivers your releases to 150+ stores and pays 100% of royalties to artists."
    />
  );
}
