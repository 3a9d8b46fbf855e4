import { DashboardPlaceholder } from '../components/app-frame';

export default function SignupPage() {
  return (
    <DashboardPlaceholder title="Create account" description="Join Omni and start distributing your music." />
  );
}
