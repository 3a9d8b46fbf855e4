import { preOrderProblem } from '@omni/proto/api';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  FormField,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  toast,
} from '@omni/ui';
import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { type ArtistFormValues, GENRES, METADATA_LABELS, type TextField } from '../../lib/artist-form';
import {
  EDIT_TAB_LABELS,
  EDIT_TABS,
  type EditTab,
  editRequestOf,
  formValuesOf,
  type TrackRow,
  trackRowsOf,
} from '../../lib/release-edit';
import { type EditAnswer, editRelease, RELEASE_TYPES, type Release } from '../../lib/releases-api';
import { NativeSelect, TextArea } from '../form-controls';
import { ReleaseTimeZone } from './release-time-zone';

const TYPE_LABELS = { single: 'Single', ep: 'EP', album: 'Album' } as const;

interface ReleaseEditorProps {
  release: Release;
  /** Stores have (or are getting) the release: its ISRCs are theirs and cannot change. */
  delivered: boolean;
  tab: EditTab;
  /** The track a deep link pointed at (1-based), focused and marked. */
  track: number | null;
  onSaved: (answer: EditAnswer) => void;
  onClose: () => void;
}

/**
 * The release page's editor: the five tabs of /artist-upload, the release's fields and, where a field is a
 * track's, one row per track. Saving sends only what changed; a change goes back to review, and once
 * approved every store that has the release receives it again.
 */
export function ReleaseEditor({ release, delivered, tab, track, onSaved, onClose }: ReleaseEditorProps) {
  const [values, setValues] = useState<ArtistFormValues>(() => formValuesOf(release));
  const [rows, setRows] = useState<TrackRow[]>(() => trackRowsOf(release));
  const [current, setCurrent] = useState<EditTab>(tab);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const marked = useRef<HTMLDivElement>(null);
  const single = rows.length === 1;
  useEffect(() => {
    marked.current?.scrollIntoView({ block: 'center' });
    marked.current?.querySelector<HTMLElement>('input, textarea')?.focus();
  }, []);

  const set = (patch: Partial<ArtistFormValues>) => setValues((v) => ({ ...v, ...patch }));
  const setRow = (i: number, patch: Partial<TrackRow>) =>
    setRows((all) => all.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    const request = editRequestOf(release, values, rows);
    if (Object.keys(request).length === 0) {
      setError('Nothing has changed yet.');
      return;
    }
    // Checked here first, with catalog's own rule and words; catalog checks again.
    const preOrder = preOrderProblem(values.preOrderDate, values.releaseDate);
    if (preOrder) {
      setError(preOrder);
      return;
    }
    setBusy(true);
    try {
      const answer = await editRelease(release.id, request);
      toast.success(
        answer.changed
          ? `Saved as version ${answer.version?.version ?? ''}: back in review, then sent to your stores again.`
          : 'Nothing has changed.',
      );
      onSaved(answer);
    } catch (err) {
      // What the artist typed stays; the message says what to fix.
      setError(err instanceof Error ? err.message : 'The release could not be saved.');
    } finally {
      setBusy(false);
    }
  }

  const text = (
    field: TextField,
    label = METADATA_LABELS[field] ?? field,
    extra: Record<string, unknown> = {},
  ) => (
    <FormField
      label={label}
      value={values[field]}
      disabled={busy}
      onChange={(e: ChangeEvent<HTMLInputElement>) =>
        set({ [field]: e.target.value } as Partial<ArtistFormValues>)
      }
      {...extra}
    />
  );

  const trackLabel = (i: number) => `Track ${i + 1}`;
  const rowClass = (i: number) =>
    `rounded-md border p-3 ${track === i + 1 ? 'border-primary ring-2 ring-primary/40' : ''}`;

  return (
    <Card data-testid="release-editor">
      <CardHeader>
        <CardTitle>Edit release</CardTitle>
        <CardDescription>
          {delivered
            ? 'Your stores have this release. A change goes back to review, then every store receives the corrected release. ISRCs, the UPC and the track list stay as the stores know them.'
            : 'No store has this release yet: your changes replace what you submitted and go to review.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={save} noValidate className="space-y-4">
          <Tabs value={current} onValueChange={(v) => setCurrent(v as EditTab)} className="w-full">
            <TabsList className="flex h-auto w-full flex-wrap justify-start">
              {EDIT_TABS.map((t) => (
                <TabsTrigger key={t} value={t}>
                  {EDIT_TAB_LABELS[t]}
                </TabsTrigger>
              ))}
            </TabsList>

            <TabsContent value="basic" className="space-y-4 pt-4 data-[state=inactive]:hidden">
              <div className="grid gap-4 sm:grid-cols-2">
                {text('artistName', 'Artist Name *')}
                {text('releaseTitle', 'Release Title *')}
                <NativeSelect
                  label="Release Type"
                  value={values.releaseType}
                  options={RELEASE_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
                  disabled={busy}
                  onChange={(v) => set({ releaseType: v as ArtistFormValues['releaseType'] })}
                />
                <NativeSelect
                  label="Primary Genre *"
                  value={values.genre}
                  options={[...new Set([values.genre, ...GENRES])].map((g) => ({ value: g, label: g }))}
                  disabled={busy}
                  onChange={(genre) => set({ genre })}
                />
                {text('label', 'Label')}
                {text('featuredArtists', 'Featured Artists (optional)', {
                  placeholder: 'Comma-separated; add (remixer) after a remixer',
                })}
                {text('language', 'Language (optional)', { placeholder: 'e.g. en' })}
                {text('releaseDate', 'Release Date (optional)', { type: 'date' })}
                {text('preOrderDate', 'Pre-order Date (optional)', { type: 'date' })}
                <ReleaseTimeZone
                  value={values.releaseTimeZone}
                  disabled={busy}
                  onChange={(releaseTimeZone) => set({ releaseTimeZone })}
                />
                {text('excludedTerritories', 'Not available in (optional)', {
                  placeholder: 'Worldwide unless you list countries, e.g. CU, KP',
                })}
              </div>
              <fieldset className="space-y-3">
                <legend className="text-sm font-semibold">Tracks</legend>
                {rows.map((row, i) => (
                  <div
                    key={release.tracks[i]!.id}
                    ref={track === i + 1 ? marked : undefined}
                    className={rowClass(i)}
                    data-testid="edit-track"
                  >
                    <p className="mb-2 text-xs font-medium text-muted-foreground">{trackLabel(i)}</p>
                    <div className="grid gap-3 sm:grid-cols-2">
                      <FormField
                        label={`${trackLabel(i)} title *`}
                        value={row.title}
                        disabled={busy}
                        onChange={(e: ChangeEvent<HTMLInputElement>) => setRow(i, { title: e.target.value })}
                      />
                      <FormField
                        label={`${trackLabel(i)} ISRC`}
                        value={row.isrc}
                        disabled={busy || delivered}
                        hint={
                          delivered
                            ? 'Stores identify the recording by it: it cannot change now.'
                            : 'Leave empty to have one assigned.'
                        }
                        onChange={(e: ChangeEvent<HTMLInputElement>) => setRow(i, { isrc: e.target.value })}
                      />
                      <FormField
                        label={`${trackLabel(i)} featured artists`}
                        value={row.featured}
                        placeholder="Comma-separated; add (remixer) after a remixer"
                        disabled={busy}
                        onChange={(e: ChangeEvent<HTMLInputElement>) =>
                          setRow(i, { featured: e.target.value })
                        }
                      />
                      <FormField
                        label={`${trackLabel(i)} lyrics language`}
                        value={row.language}
                        placeholder="e.g. en"
                        maxLength={2}
                        disabled={busy}
                        onChange={(e: ChangeEvent<HTMLInputElement>) =>
                          setRow(i, { language: e.target.value })
                        }
                      />
                      <label className="flex items-center gap-2 text-sm">
                        <input
                          type="checkbox"
                          className="h-4 w-4 accent-primary"
                          checked={row.explicit}
                          disabled={busy}
                          onChange={(e) => setRow(i, { explicit: e.target.checked })}
                        />
                        {trackLabel(i)} is explicit
                      </label>
                    </div>
                  </div>
                ))}
              </fieldset>
            </TabsContent>

            <TabsContent
              value="credits"
              className="grid gap-4 pt-4 data-[state=inactive]:hidden sm:grid-cols-2"
            >
              {text('producers', undefined, { placeholder: 'Comma-separated' })}
              {text('writers', undefined, { placeholder: 'Comma-separated' })}
              {text('musicians', undefined, { placeholder: 'Comma-separated' })}
              {text('engineer')}
              <div className="sm:col-span-2">
                <TextArea
                  label={METADATA_LABELS.instruments!}
                  value={values.instruments}
                  disabled={busy}
                  onChange={(instruments) => set({ instruments })}
                />
              </div>
            </TabsContent>

            <TabsContent
              value="technical"
              className="grid gap-4 pt-4 data-[state=inactive]:hidden sm:grid-cols-2"
            >
              {text('bpm', undefined, { type: 'number', min: 1, max: 999, inputMode: 'numeric' })}
              {text('musicalKey', undefined, { placeholder: 'e.g. A minor' })}
              {text('style')}
              {text('mood')}
              {text('recordedIn', undefined, { placeholder: 'City, country' })}
              {text('masteringStudio')}
              {text('recordingDate', undefined, { type: 'date' })}
            </TabsContent>

            <TabsContent
              value="legal"
              className="grid gap-4 pt-4 data-[state=inactive]:hidden sm:grid-cols-2"
            >
              {text('copyrightLine', undefined, { placeholder: '℗ 2025 Your Label' })}
              {text('publishingLine', undefined, { placeholder: '© 2025 Your Publisher' })}
              {text('pro', undefined, { placeholder: 'e.g. ASCAP, BMI, PRS' })}
              {text('ipi')}
              {text('iswc')}
              {text('isni')}
              <p
                className="rounded-md bg-muted px-3 py-2 text-sm text-muted-foreground sm:col-span-2"
                role="note"
              >
                UPC <span className="font-mono">{release.upc || 'pending'}</span>; each track's ISRC is on the
                Basic Info tab.
              </p>
            </TabsContent>

            <TabsContent value="content" className="space-y-4 pt-4 data-[state=inactive]:hidden">
              <TextArea
                label={METADATA_LABELS.summary!}
                rows={3}
                value={values.summary}
                disabled={busy}
                onChange={(summary) => set({ summary })}
              />
              {single ? (
                <TextArea
                  label={METADATA_LABELS.lyrics!}
                  rows={8}
                  value={values.lyrics}
                  disabled={busy}
                  onChange={(lyrics) => set({ lyrics })}
                />
              ) : (
                rows.map((row, i) => (
                  <div
                    key={release.tracks[i]!.id}
                    ref={track === i + 1 && current === 'content' ? marked : undefined}
                    className={rowClass(i)}
                  >
                    <TextArea
                      label={`${trackLabel(i)} lyrics (${row.title})`}
                      rows={4}
                      value={row.lyrics}
                      disabled={busy}
                      onChange={(lyrics) => setRow(i, { lyrics })}
                    />
                  </div>
                ))
              )}
            </TabsContent>
          </Tabs>
          {error ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {error}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={busy}>
              {busy ? 'Saving…' : 'Save changes'}
            </Button>
            <Button type="button" variant="outline" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
