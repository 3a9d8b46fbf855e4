import { DashboardPlaceholder } from '../components/app-frame';

export default function LoginPage() {
  return (
    <DashboardPlaceholder
      title="Sign in"
      description="Sign in with your email and password, Google, or a one-time email link."
    />
  );
}
