import { DashboardPlaceholder } from '../components/app-frame';

export default function ReleasePage() {
  return <DashboardPlaceholder title="Release" description="Release details and delivery status." />;
}
