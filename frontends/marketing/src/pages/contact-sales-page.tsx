import { useSearchParams } from 'react-router';
import { MarketingPlaceholder } from '../components/placeholder';

/** /contact-sales, and /contact-sales?type=dpa for a data processing agreement request. */
export default function ContactSalesPage() {
  const [params] = useSearchParams();
  const isDpa = params.get('type') === 'dpa';
  return isDpa ? (
    <MarketingPlaceholder
      title="Request a DPA"
      description="Tell us about your organisation and we will send our data processing agreement."
    />
  ) : (
    <MarketingPlaceholder
      title="Contact Sales"
      description="Enterprise plans with custom terms for labels and distributors."
    />
  );
}
