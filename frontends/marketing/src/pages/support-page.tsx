import { MarketingPlaceholder } from '../components/placeholder';

export default function SupportPage() {
  return (
    <MarketingPlaceholder
      title="Support"
      description="Search the docs, browse by category, or open a ticket. We reply within 1 business day."
    />
  );
}
