import { DashboardPlaceholder } from '../components/app-frame';

export default function ForgotPasswordPage() {
  return (
    <DashboardPlaceholder
      title="Reset your password"
      description="We will email you a link to choose a new password."
    />
  );
}
