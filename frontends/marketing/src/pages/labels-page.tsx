import { MarketingPlaceholder } from '../components/placeholder';

export default function LabelsPage() {
  return (
    <MarketingPlaceholder
      title="For Labels"
      description="Sub-labels, approvals and takedowns, and roll-up analytics across your roster."
    />
  );
}
