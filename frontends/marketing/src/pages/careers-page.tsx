import { MarketingPlaceholder } from '../components/placeholder';

export default function CareersPage() {
  return (
    <MarketingPlaceholder
      title="Careers"
      description="Help independent artists get paid. Open roles will be listed here."
    />
  );
}
