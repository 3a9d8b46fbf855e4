import { DashboardPlaceholder } from '../components/app-frame';

export default function DashboardPage() {
  return (
    <DashboardPlaceholder
      title="Dashboard"
      description="Your releases, streams, earnings and collaborators at a glance."
    />
  );
}
