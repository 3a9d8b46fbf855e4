import { RELEASE_MESSAGES } from '@omni/proto/api';
import { Button, Card, CardContent, CardHeader, CardTitle, FormField, Label, useSession } from '@omni/ui';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../lib/error-message';
import { submitSong } from '../../lib/releases-api';
import { uploadFile } from '../../lib/upload';

/** What the status line says; a success names the release it made, so the line can link to it. */
type Outcome = { kind: 'error' | 'info' | 'success'; text: string; releaseId?: string } | null;

/**
 * Spec: the 'Song Submission' panel. Checks in the spec's order (title and artist, audio file,
 * signed-in user), then the audio goes to the audio bucket and the server creates the release with
 * an ISRC it allocates when the field is blank.
 */
export function SongSubmission() {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const fileId = useId();
  const [title, setTitle] = useState('');
  const [artistName, setArtistName] = useState('');
  const [isrc, setIsrc] = useState('');
  const [upc, setUpc] = useState('');
  const [audio, setAudio] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!title.trim() || !artistName.trim())
      return setOutcome({ kind: 'error', text: RELEASE_MESSAGES.songRequired });
    if (!audio) return setOutcome({ kind: 'error', text: RELEASE_MESSAGES.songAudio });
    if (!session) return setOutcome({ kind: 'error', text: 'Sign in first.' });
    setBusy(true);
    setOutcome({ kind: 'info', text: 'Uploading audio…' });
    try {
      const file = await uploadFile({
        bucket: 'audio',
        purpose: 'song-submission',
        title: title.trim(),
        role: 'audio',
        file: audio,
        onProgress: ({ percent }) => setOutcome({ kind: 'info', text: `Uploading audio: ${percent}%` }),
      });
      setOutcome({ kind: 'info', text: 'Creating the release…' });
      const result = await submitSong({
        title: title.trim(),
        artistName: artistName.trim(),
        ...(isrc.trim() ? { isrc: isrc.trim().toUpperCase() } : {}),
        ...(upc.trim() ? { upc: upc.trim() } : {}),
        audio: { bucket: file.bucket, fileKey: file.fileKey },
      });
      setOutcome({ kind: 'success', text: `Submitted! ISRC ${result.isrc}`, releaseId: result.releaseId });
      await queryClient.invalidateQueries({ queryKey: ['uploads'] });
    } catch (error) {
      const message = errorMessage(error, 'Submission failed.');
      setOutcome({
        kind: 'error',
        text: /does not exist/i.test(message) ? 'Audio bucket missing. Create "audio" in Storage.' : message,
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Song Submission</CardTitle>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4 sm:grid-cols-2" onSubmit={onSubmit} noValidate>
          <FormField label="Title" value={title} disabled={busy} onChange={(e) => setTitle(e.target.value)} />
          <FormField
            label="Artist Name"
            value={artistName}
            disabled={busy}
            onChange={(e) => setArtistName(e.target.value)}
          />
          <FormField
            label="ISRC"
            placeholder="Leave blank to auto-generate"
            hint="Blank = auto"
            value={isrc}
            disabled={busy}
            onChange={(e) => setIsrc(e.target.value)}
          />
          <FormField
            label="UPC (optional)"
            inputMode="numeric"
            value={upc}
            disabled={busy}
            onChange={(e) => setUpc(e.target.value)}
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
              {busy ? 'Submitting…' : 'Submit Song'}
            </Button>
            {outcome ? (
              <p
                role={outcome.kind === 'error' ? 'alert' : 'status'}
                data-testid="song-status"
                className={
                  outcome.kind === 'error'
                    ? 'text-sm text-destructive'
                    : outcome.kind === 'success'
                      ? 'text-sm font-medium text-green-700 dark:text-green-400'
                      : 'text-sm text-muted-foreground'
                }
              >
                {outcome.text}
              </p>
            ) : null}
            {outcome?.releaseId ? (
              <Link
                to={`/release/${outcome.releaseId}`}
                className="text-sm font-medium text-primary underline-offset-4 hover:underline"
              >
                View the release
              </Link>
            ) : null}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
