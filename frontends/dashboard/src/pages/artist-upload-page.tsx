import { DashboardPlaceholder } from '../components/app-frame';

export default function ArtistUploadPage() {
  return (
    <DashboardPlaceholder
      title="Artist Upload"
      description="Upload your release and distribute it to 150+ platforms worldwide."
    />
  );
}
