import {
  DELIVERY_MESSAGES,
  RELEASE_TYPES,
  type ReleaseType,
  type ResubmitReleaseRequest,
} from '@omni/proto/api';
import {
  Button,
  Checkbox,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
  Input,
  Label,
  toast,
} from '@omni/ui';
import { useState } from 'react';
import { type ArtistFormValues, DEFAULT_GENRE, GENRES } from '../../lib/artist-form';
import { ARTIST_UPLOAD_BUCKET } from '../../lib/artist-upload-flow';
import {
  COVER_ART_RULE_TEXT,
  checkCoverArt,
  checkMasterAudio,
  MASTER_AUDIO_RULE_TEXT,
} from '../../lib/file-facts';
import { type Release, resubmitRelease } from '../../lib/releases-api';
import { uploadFile } from '../../lib/upload';
import { useFileCheck } from '../../lib/use-file-check';
import { FileCheckNote } from '../file-check-note';

const SELECT =
  'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/** The artist form's Basic Info, as the upload form types it. */
type Fields = Pick<
  ArtistFormValues,
  | 'artistName'
  | 'releaseTitle'
  | 'trackTitle'
  | 'releaseType'
  | 'genre'
  | 'label'
  | 'releaseDate'
  | 'explicit'
>;

const fieldsOf = (r: Release): Fields => ({
  artistName: r.artist.name,
  releaseTitle: r.title,
  trackTitle: r.tracks[0]?.title ?? r.title,
  releaseType: (RELEASE_TYPES as readonly string[]).includes(r.releaseType)
    ? (r.releaseType as ReleaseType)
    : 'single',
  genre: r.genre || DEFAULT_GENRE,
  label: r.label ?? '',
  releaseDate: r.releaseDate ?? '',
  explicit: r.tracks[0]?.explicit ?? false,
});

interface ResubmitDialogProps {
  release: Release;
  /** After catalog accepted the resubmission: read the release again and follow its review. */
  onResubmitted: (release: Release) => void;
}

/**
 * 'Fix and resubmit': the artist form's main fields, filled in from the release, and optionally a new cover
 * or master. The rest of the metadata (credits, codes, lyrics) is sent back unchanged.
 */
export function ResubmitDialog({ release, onResubmitted }: ResubmitDialogProps) {
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState<Fields>(() => fieldsOf(release));
  const [artwork, setArtwork] = useState<File | null>(null);
  const [audio, setAudio] = useState<File | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const artworkCheck = useFileCheck(artwork, checkCoverArt);
  const audioCheck = useFileCheck(audio, checkMasterAudio);
  const set = <K extends keyof Fields>(key: K, value: Fields[K]) =>
    setFields((f) => ({ ...f, [key]: value }));

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    // A new file the stores would refuse is said before a byte is sent (issue 21 §3.7), as on /artist-upload.
    const problem =
      (artwork ? (await checkCoverArt(artwork)).problems[0] : undefined) ??
      (audio ? (await checkMasterAudio(audio)).problems[0] : undefined);
    if (problem) {
      setError(`${problem} Checked in your browser: nothing was uploaded.`);
      return;
    }
    try {
      let artworkRef: ResubmitReleaseRequest['artwork'];
      let audioRef: ResubmitReleaseRequest['audio'];
      if (artwork) {
        setBusy('Uploading artwork…');
        const up = await uploadFile({
          bucket: ARTIST_UPLOAD_BUCKET,
          purpose: 'artist-upload',
          role: 'artwork',
          file: artwork,
        });
        artworkRef = { bucket: up.bucket, fileKey: up.fileKey };
      }
      if (audio) {
        setBusy('Uploading audio…');
        const up = await uploadFile({
          bucket: ARTIST_UPLOAD_BUCKET,
          purpose: 'artist-upload',
          role: 'audio',
          file: audio,
        });
        audioRef = { bucket: up.bucket, fileKey: up.fileKey };
      }
      setBusy('Resubmitting…');
      const { metadata } = release;
      const updated = await resubmitRelease(release.id, {
        ...fields,
        artwork: artworkRef,
        audio: audioRef,
        credits: metadata.credits as ResubmitReleaseRequest['credits'],
        technical: metadata.technical as ResubmitReleaseRequest['technical'],
        legal: metadata.legal as ResubmitReleaseRequest['legal'],
        content: metadata.content as ResubmitReleaseRequest['content'],
      });
      toast.success(DELIVERY_MESSAGES.resubmitted);
      setOpen(false);
      onResubmitted(updated);
    } catch (err) {
      // The form keeps what the artist typed; the message says what to fix.
      setError(err instanceof Error ? err.message : 'The release could not be resubmitted.');
    } finally {
      setBusy(null);
    }
  }

  const text = (
    key: 'artistName' | 'releaseTitle' | 'trackTitle' | 'label',
    label: string,
    required = false,
  ) => (
    <div className="space-y-1">
      <Label htmlFor={`resubmit-${key}`}>
        {label}
        {required ? ' *' : ''}
      </Label>
      <Input
        id={`resubmit-${key}`}
        value={fields[key]}
        aria-required={required || undefined}
        onChange={(e) => set(key, e.target.value)}
      />
    </div>
  );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setFields(fieldsOf(release));
          setArtwork(null);
          setAudio(null);
          setError(null);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm">Fix and resubmit</Button>
      </DialogTrigger>
      <DialogContent className="max-h-[90vh] max-w-[calc(100vw-2rem)] overflow-y-auto rounded-lg sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Fix and resubmit</DialogTitle>
          <DialogDescription>
            Correct what the review found, then send the release back for review. Files you leave empty stay
            as they are.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="space-y-3">
          {text('artistName', 'Artist name', true)}
          {text('releaseTitle', 'Release title', true)}
          {text('trackTitle', 'Track title', true)}
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="space-y-1">
              <Label htmlFor="resubmit-releaseType">Release type</Label>
              <select
                id="resubmit-releaseType"
                className={SELECT}
                value={fields.releaseType}
                onChange={(e) => set('releaseType', e.target.value as ReleaseType)}
              >
                {RELEASE_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t === 'ep' ? 'EP' : t[0]!.toUpperCase() + t.slice(1)}
                  </option>
                ))}
              </select>
            </div>
            <div className="space-y-1">
              <Label htmlFor="resubmit-genre">Genre</Label>
              <select
                id="resubmit-genre"
                className={SELECT}
                value={fields.genre}
                onChange={(e) => set('genre', e.target.value)}
              >
                {[...new Set([fields.genre, ...GENRES])].map((g) => (
                  <option key={g} value={g}>
                    {g}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            {text('label', 'Label')}
            <div className="space-y-1">
              <Label htmlFor="resubmit-releaseDate">Release date</Label>
              <Input
                id="resubmit-releaseDate"
                type="date"
                value={fields.releaseDate}
                onChange={(e) => set('releaseDate', e.target.value)}
              />
            </div>
          </div>
          <div className="flex items-center gap-2">
            <Checkbox
              id="resubmit-explicit"
              checked={fields.explicit}
              onCheckedChange={(on) => set('explicit', on === true)}
            />
            <Label htmlFor="resubmit-explicit" className="font-normal">
              Explicit content
            </Label>
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="space-y-1">
              <Label htmlFor="resubmit-artwork">New artwork (optional)</Label>
              <Input
                id="resubmit-artwork"
                type="file"
                accept="image/jpeg,image/png"
                aria-describedby="resubmit-artwork-check"
                onChange={(e) => setArtwork(e.target.files?.[0] ?? null)}
              />
              <div id="resubmit-artwork-check" className="text-xs">
                <FileCheckNote
                  rule={COVER_ART_RULE_TEXT}
                  result={artworkCheck}
                  chosen={!!artwork}
                  testId="resubmit-artwork-check"
                />
              </div>
            </div>
            <div className="space-y-1">
              <Label htmlFor="resubmit-audio">New audio (optional)</Label>
              <Input
                id="resubmit-audio"
                type="file"
                accept="audio/wav,audio/x-wav,audio/flac,.wav,.flac"
                aria-describedby="resubmit-audio-check"
                onChange={(e) => setAudio(e.target.files?.[0] ?? null)}
              />
              <div id="resubmit-audio-check" className="text-xs">
                <FileCheckNote
                  rule={MASTER_AUDIO_RULE_TEXT}
                  result={audioCheck}
                  chosen={!!audio}
                  testId="resubmit-audio-check"
                />
              </div>
            </div>
          </div>
          {error ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {error}
            </p>
          ) : null}
          <DialogFooter className="gap-2">
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy !== null}>
              {busy ?? 'Resubmit for review'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
