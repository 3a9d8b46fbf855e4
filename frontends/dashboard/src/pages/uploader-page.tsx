import { DashboardPlaceholder } from '../components/app-frame';

export default function UploaderPage() {
  return <DashboardPlaceholder title="Uploader" description="Upload files to storage and submit songs." />;
}
