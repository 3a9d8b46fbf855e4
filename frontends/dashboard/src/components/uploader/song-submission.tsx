import {
  compactUpc,
  ISRC_RULE,
  isValidUpc,
  normalizeIsrc,
  RELEASE_MESSAGES,
  UPC_RULE,
} from '@omni/proto/api';
import { Button, Card, CardContent, CardHeader, CardTitle, FormField, Label, useSession } from '@omni/ui';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../lib/error-message';
import { checkMasterAudio, MASTER_AUDIO_RULE_TEXT } from '../../lib/file-facts';
import { submitSong } from '../../lib/releases-api';
import { discardUpload, uploadFile } from '../../lib/upload';
import { useFileCheck } from '../../lib/use-file-check';
import { FileCheckNote } from '../file-check-note';

/** A typed code's problem, in the words catalog answers with (the rules are the API contract's). */
const isrcProblem = (isrc: string) => (isrc.trim() && !normalizeIsrc(isrc) ? ISRC_RULE : undefined);
const upcProblem = (upc: string) => (upc.trim() && !isValidUpc(compactUpc(upc)) ? UPC_RULE : undefined);

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
  // A code's shape is said once the person leaves the field (or sends the form), not at the first keystroke.
  const [codesTouched, setCodesTouched] = useState({ isrc: false, upc: false });
  const audioCheck = useFileCheck(audio, checkMasterAudio);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!title.trim() || !artistName.trim())
      return setOutcome({ kind: 'error', text: RELEASE_MESSAGES.songRequired });
    if (!audio) return setOutcome({ kind: 'error', text: RELEASE_MESSAGES.songAudio });
    if (!session) return setOutcome({ kind: 'error', text: 'Sign in first.' });
    // What the browser can know is checked before a byte is sent (issue 21 §3.7): the codes' shapes and
    // the master's format from its header.
    setCodesTouched({ isrc: true, upc: true });
    const codeProblem = isrcProblem(isrc) ?? upcProblem(upc);
    if (codeProblem) return setOutcome({ kind: 'error', text: codeProblem });
    const audioProblem = (await checkMasterAudio(audio)).problems[0];
    if (audioProblem)
      return setOutcome({
        kind: 'error',
        text: `${audioProblem} Checked in your browser: nothing was uploaded.`,
      });
    setBusy(true);
    setOutcome({ kind: 'info', text: 'Uploading audio…' });
    // The uploaded file, until the song is made with it: a try that fails after the upload discards it
    // (issue 21 §3.7), so the retry reuses its name instead of leaving an orphan beside a "-2".
    let sent: { bucket: string; fileKey: string } | null = null;
    try {
      const file = await uploadFile({
        bucket: 'audio',
        purpose: 'song-submission',
        title: title.trim(),
        role: 'audio',
        file: audio,
        onProgress: ({ percent }) => setOutcome({ kind: 'info', text: `Uploading audio: ${percent}%` }),
      });
      sent = file;
      setOutcome({ kind: 'info', text: 'Creating the release…' });
      const result = await submitSong({
        title: title.trim(),
        artistName: artistName.trim(),
        ...(isrc.trim() ? { isrc: isrc.trim().toUpperCase() } : {}),
        ...(upc.trim() ? { upc: upc.trim() } : {}),
        audio: { bucket: file.bucket, fileKey: file.fileKey },
      });
      sent = null;
      setOutcome({ kind: 'success', text: `Submitted! ISRC ${result.isrc}`, releaseId: result.releaseId });
      await queryClient.invalidateQueries({ queryKey: ['uploads'] });
    } catch (error) {
      // Best effort: catalog removes what it refused, and storage keeps a file a release may use.
      if (sent) await discardUpload(sent).catch(() => undefined);
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
            hint="Blank = auto. 12 letters and digits, e.g. QZQDU2600001; checked here before upload."
            value={isrc}
            disabled={busy}
            error={codesTouched.isrc ? isrcProblem(isrc) : undefined}
            onBlur={() => setCodesTouched((t) => ({ ...t, isrc: true }))}
            onChange={(e) => setIsrc(e.target.value)}
          />
          <FormField
            label="UPC (optional)"
            inputMode="numeric"
            hint="12 to 14 digits with a valid check digit; checked here before upload."
            value={upc}
            disabled={busy}
            error={codesTouched.upc ? upcProblem(upc) : undefined}
            onBlur={() => setCodesTouched((t) => ({ ...t, upc: true }))}
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
              aria-describedby={`${fileId}-check`}
              aria-invalid={audioCheck && audioCheck.problems.length > 0 ? true : undefined}
              onChange={(e) => setAudio(e.target.files?.[0] ?? null)}
            />
            <div id={`${fileId}-check`} className="text-xs">
              <FileCheckNote
                rule={MASTER_AUDIO_RULE_TEXT}
                result={audioCheck}
                chosen={!!audio}
                testId="song-audio-check"
              />
            </div>
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
