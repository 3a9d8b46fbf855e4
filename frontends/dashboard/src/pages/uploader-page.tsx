import { Button, FormField, Spinner, useDocumentTitle, useSession } from '@omni/ui';
import { useState } from 'react';
import { MagicLinkButton } from '../components/magic-link-button';
import { SiteLogo } from '../components/site-logo';
import { BucketUploads } from '../components/uploader/bucket-uploads';
import { SetupChecklist } from '../components/uploader/setup-checklist';
import { SongSubmission } from '../components/uploader/song-submission';
import { signOutWithToast } from '../lib/sign-out';
import '../styles.css';

/** Who is signed in, and the magic-link sign-in that brings the user back to this page. */
function UploaderSignIn() {
  const { status, session } = useSession();
  const [email, setEmail] = useState('');
  return (
    <section aria-labelledby="uploader-auth" className="rounded-lg border bg-background p-6">
      <h2 id="uploader-auth" className="text-lg font-semibold">
        Account
      </h2>
      <div className="mt-2 text-sm" data-testid="uploader-session">
        {status === 'loading' ? (
          <Spinner label="Checking your session…" />
        ) : session ? (
          <p>
            Signed in as <span className="font-medium">{session.user.email}</span>
          </p>
        ) : (
          <p className="text-muted-foreground">Not signed in</p>
        )}
      </div>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <FormField
          className="flex-1"
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <MagicLinkButton getEmail={() => email} redirectTo="/uploader" />
        <Button variant="outline" onClick={() => signOutWithToast()} disabled={!session}>
          Sign out
        </Button>
      </div>
    </section>
  );
}

export default function UploaderPage() {
  useDocumentTitle('Uploader');
  return (
    <div className="min-h-screen bg-muted/30">
      <header className="border-b bg-background">
        <div className="container flex h-14 items-center">
          <SiteLogo />
        </div>
      </header>
      <main id="main" className="container space-y-6 py-10">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Uploader</h1>
          <p className="mt-2 text-muted-foreground">Upload files to storage and submit songs.</p>
        </div>
        <UploaderSignIn />
        <BucketUploads />
        <SongSubmission />
        <SetupChecklist />
      </main>
    </div>
  );
}
