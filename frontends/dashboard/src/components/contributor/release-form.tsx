import { CMS_MESSAGES } from '@omni/proto/api';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  FormField,
  Label,
  useSession,
} from '@omni/ui';
import { type FormEvent, useId, useState } from 'react';
import { submitContributorRelease } from '../../lib/contributor-api';
import { errorMessage } from '../../lib/error-message';
import { putToSignedUrl, signUpload } from '../../lib/upload';

type Outcome = { kind: 'error' | 'info' | 'success'; text: string } | null;

/**
 * The audio release form: checks in the spec's order (title and artist, audio file, signed in), then the
 * audio goes to the audio bucket under the contributor's account and the release is submitted through the
 * link; the server makes the identifier code when the field is blank and says which.
 */
export function ReleaseForm({
  token,
  onSubmitted,
}: {
  token: string;
  onSubmitted: (release: { code: string; path: string }) => void;
}) {
  const { session } = useSession();
  const fileId = useId();
  const [title, setTitle] = useState('');
  const [artist, setArtist] = useState('');
  const [code, setCode] = useState('');
  const [audio, setAudio] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!title.trim() || !artist.trim())
      return setOutcome({ kind: 'error', text: CMS_MESSAGES.releaseRequired });
    if (!audio) return setOutcome({ kind: 'error', text: CMS_MESSAGES.releaseAudio });
    if (!session) return setOutcome({ kind: 'error', text: CMS_MESSAGES.signInFirst });
    setBusy(true);
    setOutcome({ kind: 'info', text: 'Uploading audio…' });
    try {
      const signed = await signUpload({
        bucket: 'audio',
        purpose: 'song-submission',
        title: title.trim(),
        fileName: audio.name,
        contentType: audio.type || 'application/octet-stream',
        size: audio.size,
      });
      await putToSignedUrl(signed, audio, ({ percent }) =>
        setOutcome({ kind: 'info', text: `Uploading audio: ${percent}%` }),
      );
      setOutcome({ kind: 'info', text: 'Submitting the release…' });
      const done = await submitContributorRelease(token, {
        title: title.trim(),
        artist: artist.trim(),
        ...(code.trim() ? { code: code.trim().toUpperCase() } : {}),
        fileKey: signed.fileKey,
      });
      setOutcome({
        kind: 'success',
        text: `Submitted for review. Identifier code ${done.code} (${done.path})`,
      });
      onSubmitted({ code: done.code, path: done.path });
    } catch (error) {
      setOutcome({ kind: 'error', text: errorMessage(error, 'Submission failed.') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Audio release</CardTitle>
        <CardDescription>Submit a track for review. Signing in is required.</CardDescription>
      </CardHeader>
      <CardContent>
        {session ? null : (
          <p
            className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
            data-testid="release-needs-account"
          >
            A release is submitted from an Omni account: sign in above with your email first. If you have no
            account, the link we email you creates one.
          </p>
        )}
        <form className="grid grid-cols-1 gap-4 sm:grid-cols-2" onSubmit={onSubmit} noValidate>
          <FormField label="Title" value={title} disabled={busy} onChange={(e) => setTitle(e.target.value)} />
          <FormField
            label="Artist"
            value={artist}
            disabled={busy}
            onChange={(e) => setArtist(e.target.value)}
          />
          <FormField
            className="sm:col-span-2"
            label="Identifier code"
            placeholder="Leave blank to auto-generate"
            hint="Blank = auto (OMNI and 7 digits)"
            value={code}
            disabled={busy}
            onChange={(e) => setCode(e.target.value)}
          />
          <div className="space-y-2 sm:col-span-2">
            <Label htmlFor={fileId}>Audio file</Label>
            <input
              id={fileId}
              type="file"
              accept="audio/*"
              disabled={busy}
              className="block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-secondary file:px-3 file:py-2 file:text-sm file:font-medium"
              onChange={(e) => setAudio(e.target.files?.[0] ?? null)}
            />
          </div>
          <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
            <Button type="submit" disabled={busy}>
              {busy ? 'Submitting…' : 'Submit release'}
            </Button>
            {outcome ? (
              <p
                role={outcome.kind === 'error' ? 'alert' : 'status'}
                data-testid="release-status"
                className={
                  outcome.kind === 'error'
                    ? 'min-w-0 text-sm [overflow-wrap:anywhere] text-destructive'
                    : outcome.kind === 'success'
                      ? 'min-w-0 text-sm [overflow-wrap:anywhere] font-medium text-green-700 dark:text-green-400'
                      : 'text-sm text-muted-foreground'
                }
              >
                {outcome.text}
              </p>
            ) : null}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
