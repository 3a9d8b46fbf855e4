import { appleTypeWarning, MAX_TRACKS } from '@omni/proto/api';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Input,
  Label,
  Progress,
} from '@omni/ui';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { moveTrack, type TrackDraft } from '../../lib/album-upload';
import { formatBytes, formatDuration } from '../../lib/artist-upload-flow';
import type { ReleaseType } from '../../lib/releases-api';

interface TrackListProps {
  tracks: TrackDraft[];
  releaseType: ReleaseType;
  disabled: boolean;
  onChange: (tracks: TrackDraft[]) => void;
  /** Files the artist dropped or chose: made into tracks (titles from the file names) and checked. */
  onAddFiles: (files: File[]) => void;
}

function UploadStatus({ track }: { track: TrackDraft }) {
  const { upload } = track;
  if (upload.state === 'uploading')
    return (
      <div className="space-y-1" data-testid="track-upload">
        <Progress value={upload.percent} aria-label={`Upload of ${track.title}`} />
        <p className="text-xs text-muted-foreground">Uploading… {upload.percent}%</p>
      </div>
    );
  if (upload.state === 'done')
    return (
      <p className="text-xs text-emerald-700 dark:text-emerald-400" data-testid="track-upload">
        Uploaded and checked
      </p>
    );
  if (upload.state === 'failed')
    return (
      <p className="text-xs font-medium text-destructive" role="alert" data-testid="track-upload">
        Upload failed: {upload.error.replace(/\.$/, '')}. Press the button again to retry this file alone.
      </p>
    );
  return null;
}

/**
 * The release builder's tracks: add many masters at once (or drop them here), order them, remove one; each
 * file is checked in the browser as it is added, and each upload shows its own progress.
 */
export function TrackList({ tracks, releaseType, disabled, onChange, onAddFiles }: TrackListProps) {
  const inputId = useId();
  const set = (i: number, patch: Partial<TrackDraft>) =>
    onChange(tracks.map((t, j) => (j === i ? { ...t, ...patch } : t)));
  const seconds = tracks.map((t) => t.seconds);
  const known = seconds.every((s): s is number => s !== undefined);
  const apple = known ? appleTypeWarning(seconds as number[], releaseType) : null;
  const total = known ? (seconds as number[]).reduce((a, b) => a + b, 0) : undefined;
  return (
    <Card
      data-testid="track-list"
      onDragOver={(e) => {
        if (!disabled) e.preventDefault();
      }}
      onDrop={(e) => {
        e.preventDefault();
        if (disabled) return;
        onAddFiles(
          [...e.dataTransfer.files].filter(
            (f) => f.type.startsWith('audio') || /\.(wav|flac)$/i.test(f.name),
          ),
        );
      }}
    >
      <CardHeader>
        <CardTitle>Tracks</CardTitle>
        <CardDescription>
          {tracks.length === 0
            ? 'A single needs only the audio file on Basic Info. For an EP or album, add every master here (or drop them on this card): the order here is the track order.'
            : `${tracks.length} track${tracks.length === 1 ? '' : 's'}${total !== undefined ? `, ${formatDuration(total)} in all` : ''}. The order here is the track order.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {tracks.map((track, i) => (
          <div key={track.key} className="rounded-md border p-3" data-testid="builder-track">
            <div className="flex flex-wrap items-center gap-2">
              <span className="w-6 text-sm font-semibold">{i + 1}</span>
              <div className="min-w-48 flex-1">
                <Label htmlFor={`${track.key}-title`} className="sr-only">
                  Track {i + 1} title
                </Label>
                <Input
                  id={`${track.key}-title`}
                  value={track.title}
                  disabled={disabled}
                  aria-label={`Track ${i + 1} title`}
                  aria-invalid={!track.title.trim() || undefined}
                  onChange={(e) => set(i, { title: e.target.value })}
                />
              </div>
              <Button
                type="button"
                size="icon"
                variant="ghost"
                disabled={disabled || i === 0}
                aria-label={`Move track ${i + 1} up`}
                onClick={() => onChange(moveTrack(tracks, i, -1))}
              >
                <ArrowUp aria-hidden="true" />
              </Button>
              <Button
                type="button"
                size="icon"
                variant="ghost"
                disabled={disabled || i === tracks.length - 1}
                aria-label={`Move track ${i + 1} down`}
                onClick={() => onChange(moveTrack(tracks, i, 1))}
              >
                <ArrowDown aria-hidden="true" />
              </Button>
              <Button
                type="button"
                size="icon"
                variant="ghost"
                disabled={disabled}
                aria-label={`Remove track ${i + 1}`}
                onClick={() => onChange(tracks.filter((_, j) => j !== i))}
              >
                <Trash2 aria-hidden="true" />
              </Button>
            </div>
            <p className="mt-1 text-xs text-muted-foreground">
              {track.file.name} · {formatBytes(track.file.size)}
              {track.seconds !== undefined ? ` · ${formatDuration(track.seconds)}` : ''}
            </p>
            {track.problems.length > 0 ? (
              <p className="mt-1 text-xs font-medium text-destructive" data-testid="builder-track-problem">
                {track.problems[0]}
              </p>
            ) : null}
            <div className="mt-2 grid gap-2 sm:grid-cols-[1fr_1fr_auto]">
              <Input
                value={track.featured}
                placeholder="Featured artists (comma-separated; add (remixer) after a remixer)"
                aria-label={`Track ${i + 1} featured artists`}
                disabled={disabled}
                onChange={(e) => set(i, { featured: e.target.value })}
              />
              <Input
                value={track.isrc}
                placeholder="ISRC (leave empty: Omni assigns one)"
                aria-label={`Track ${i + 1} ISRC`}
                disabled={disabled}
                onChange={(e) => set(i, { isrc: e.target.value })}
              />
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-primary"
                  checked={track.explicit}
                  disabled={disabled}
                  onChange={(e) => set(i, { explicit: e.target.checked })}
                />
                Explicit
              </label>
            </div>
            <div className="mt-2">
              <UploadStatus track={track} />
            </div>
          </div>
        ))}
        {apple ? (
          <p
            className="rounded-md border border-amber-500/60 bg-amber-50 p-2 text-sm dark:bg-amber-950/20"
            data-testid="apple-type-warning"
          >
            {apple}
          </p>
        ) : null}
        <div>
          <input
            id={inputId}
            type="file"
            accept="audio/wav,audio/x-wav,audio/flac,.wav,.flac"
            multiple
            className="sr-only"
            disabled={disabled || tracks.length >= MAX_TRACKS}
            onChange={(e) => {
              onAddFiles([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
          <Button type="button" variant="outline" disabled={disabled || tracks.length >= MAX_TRACKS} asChild>
            <label htmlFor={inputId} className="cursor-pointer">
              <Plus aria-hidden="true" />
              {tracks.length === 0 ? 'Add tracks (EP or album)' : 'Add more tracks'}
            </label>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
