import { MarketingPlaceholder } from '../components/placeholder';

export default function FeaturesPage() {
  return (
    <MarketingPlaceholder
      title="Features"
      description="Catalog management, a distribution engine, royalties and payouts, control with roles and dual approvals, and support services in one place."
    />
  );
}
