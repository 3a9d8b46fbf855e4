import { MarketingPlaceholder } from '../components/placeholder';

export default function SecurityPage() {
  return (
    <MarketingPlaceholder
      title="Trust & Security"
      description="How we protect your catalog and your data: security, compliance and data processing agreements."
    />
  );
}
