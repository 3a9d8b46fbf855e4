import { ComingSoonPage } from '@omni/ui';

export default function UploadsPage() {
  return <ComingSoonPage title="Upload Assets" description="Upload music or video to a public page." />;
}
