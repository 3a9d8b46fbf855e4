import { MarketingPlaceholder } from '../components/placeholder';

export default function CompanyPage() {
  return (
    <MarketingPlaceholder
      title="About Omni"
      description="From 1997 to 2025: the people and values behind Omni."
    />
  );
}
