import { DashboardPlaceholder } from '../components/app-frame';

export default function ContributorUploadPage() {
  return (
    <DashboardPlaceholder
      title="Contributor Upload"
      description="Upload files with the link you were sent."
    />
  );
}
