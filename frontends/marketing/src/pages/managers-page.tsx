import { MarketingPlaceholder } from '../components/placeholder';

export default function ManagersPage() {
  return (
    <MarketingPlaceholder
      title="For Managers"
      description="Portfolio dashboards, permission scoping and exportable summaries for every artist you manage."
    />
  );
}
