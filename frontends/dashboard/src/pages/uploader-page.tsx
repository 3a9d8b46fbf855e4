import { AppHeader, useDocumentTitle } from '@omni/ui';
import { MagicLinkSignIn } from '../components/magic-link-sign-in';
import { BucketUploads } from '../components/uploader/bucket-uploads';
import { SetupChecklist } from '../components/uploader/setup-checklist';
import { SongSubmission } from '../components/uploader/song-submission';
import '../styles.css';

export default function UploaderPage() {
  useDocumentTitle('Uploader');
  return (
    <div className="min-h-screen bg-muted/30">
      <AppHeader />
      <main id="main" className="container space-y-6 py-10">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Uploader</h1>
          <p className="mt-2 text-muted-foreground">Upload files to storage and submit songs.</p>
        </div>
        <MagicLinkSignIn redirectTo="/uploader" />
        <BucketUploads />
        <SongSubmission />
        <SetupChecklist />
      </main>
    </div>
  );
}
