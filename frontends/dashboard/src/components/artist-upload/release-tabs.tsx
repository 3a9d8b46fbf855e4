import { FormField, Label, Tabs, TabsContent, TabsList, TabsTrigger } from '@omni/ui';
import { type ChangeEvent, useId } from 'react';
import { type ArtistFormValues, GENRES, METADATA_LABELS, type TextField } from '../../lib/artist-form';
import { formatBytes } from '../../lib/artist-upload-flow';
import {
  COVER_ART_RULE_TEXT,
  checkCoverArt,
  checkMasterAudio,
  type FileCheck,
  MASTER_AUDIO_RULE_TEXT,
} from '../../lib/file-facts';
import { RELEASE_TYPES, type ReleaseType } from '../../lib/releases-api';
import { useFileCheck } from '../../lib/use-file-check';
import { FileCheckNote } from '../file-check-note';
import { NativeSelect, TextArea } from '../form-controls';
import { ReleaseTimeZone } from '../release/release-time-zone';

export interface ReleaseFiles {
  audio: File | null;
  artwork: File | null;
}

interface ReleaseTabsProps {
  values: ArtistFormValues;
  onChange: (patch: Partial<ArtistFormValues>) => void;
  files: ReleaseFiles;
  onFiles: (patch: Partial<ReleaseFiles>) => void;
  disabled: boolean;
  /** The number of tracks in the Tracks card: from 1 on, the tracks' titles and masters are there. */
  albumTracks?: number;
}

const RELEASE_TYPE_LABELS: Record<ReleaseType, string> = { single: 'Single', ep: 'EP', album: 'Album' };

/** Spec: the five tabs of /artist-upload. Values live in the page, so switching tabs loses nothing. */
export function ReleaseTabs({
  values,
  onChange,
  files,
  onFiles,
  disabled,
  albumTracks = 0,
}: ReleaseTabsProps) {
  const text = (
    field: TextField,
    label = METADATA_LABELS[field] ?? field,
    extra: Record<string, unknown> = {},
  ) => (
    <FormField
      label={label}
      value={values[field]}
      disabled={disabled}
      onChange={(event: ChangeEvent<HTMLInputElement>) =>
        onChange({ [field]: event.target.value } as Partial<ArtistFormValues>)
      }
      {...extra}
    />
  );
  const area = (field: TextField, label = METADATA_LABELS[field] ?? field, hint?: string, rows = 4) => (
    <TextArea
      label={label}
      hint={hint}
      rows={rows}
      value={values[field]}
      disabled={disabled}
      onChange={(value) => onChange({ [field]: value } as Partial<ArtistFormValues>)}
    />
  );

  return (
    <Tabs defaultValue="basic" className="w-full">
      <TabsList className="flex h-auto w-full flex-wrap justify-start">
        <TabsTrigger value="basic">Basic Info</TabsTrigger>
        <TabsTrigger value="credits">Credits</TabsTrigger>
        <TabsTrigger value="technical">Technical</TabsTrigger>
        <TabsTrigger value="legal">Legal &amp; IDs</TabsTrigger>
        <TabsTrigger value="content">Content</TabsTrigger>
      </TabsList>

      <TabsContent value="basic" className="grid data-[state=inactive]:hidden gap-4 pt-4 sm:grid-cols-2">
        {text('artistName', 'Artist Name *', { autoComplete: 'off', required: true })}
        {text('releaseTitle', 'Release Title *', { required: true })}
        {albumTracks > 0 ? (
          <p className="rounded-md bg-muted px-3 py-2 text-sm text-muted-foreground" role="note">
            {albumTracks} track{albumTracks === 1 ? '' : 's'}: their titles and audio files are in the Tracks
            card below.
          </p>
        ) : (
          text('trackTitle', 'Track Title *', { required: true })
        )}
        <NativeSelect
          label="Release Type"
          value={values.releaseType}
          disabled={disabled}
          options={RELEASE_TYPES.map((type) => ({ value: type, label: RELEASE_TYPE_LABELS[type] }))}
          onChange={(value) => onChange({ releaseType: value as ReleaseType })}
        />
        <NativeSelect
          label="Primary Genre *"
          value={values.genre}
          disabled={disabled}
          options={GENRES.map((genre) => ({ value: genre, label: genre }))}
          onChange={(value) => onChange({ genre: value })}
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
          disabled={disabled}
          onChange={(releaseTimeZone) => onChange({ releaseTimeZone })}
        />
        {text('excludedTerritories', 'Not available in (optional)', {
          placeholder: 'Worldwide unless you list countries, e.g. CU, KP',
        })}
        <div className="flex items-center gap-2 self-end pb-2">
          <input
            id="explicit"
            type="checkbox"
            className="h-4 w-4 accent-primary"
            checked={values.explicit}
            disabled={disabled}
            onChange={(event) => onChange({ explicit: event.target.checked })}
          />
          <Label htmlFor="explicit">Explicit content</Label>
        </div>
        {albumTracks > 0 ? null : (
          <FilePicker
            label="Audio File *"
            accept="audio/*"
            rule={MASTER_AUDIO_RULE_TEXT}
            file={files.audio}
            check={checkMasterAudio}
            testId="audio-check"
            disabled={disabled}
            onFile={(audio) => onFiles({ audio })}
          />
        )}
        <FilePicker
          label="Cover Artwork * (3000x3000 JPG/PNG)"
          accept="image/*"
          rule={COVER_ART_RULE_TEXT}
          file={files.artwork}
          check={checkCoverArt}
          testId="artwork-check"
          disabled={disabled}
          onFile={(artwork) => onFiles({ artwork })}
        />
      </TabsContent>

      <TabsContent value="credits" className="grid data-[state=inactive]:hidden gap-4 pt-4 sm:grid-cols-2">
        {text('producers', undefined, { placeholder: 'Comma-separated' })}
        {text('writers', undefined, { placeholder: 'Comma-separated' })}
        {text('musicians', undefined, { placeholder: 'Comma-separated' })}
        {text('engineer')}
        <div className="sm:col-span-2">
          {area('instruments', undefined, 'One per line, e.g. "Guitar – Jane Doe".')}
        </div>
      </TabsContent>

      <TabsContent value="technical" className="grid data-[state=inactive]:hidden gap-4 pt-4 sm:grid-cols-2">
        {text('bpm', undefined, { type: 'number', min: 1, max: 999, inputMode: 'numeric' })}
        {text('musicalKey', undefined, { placeholder: 'e.g. A minor' })}
        {text('style')}
        {text('mood')}
        {text('recordedIn', undefined, { placeholder: 'City, country' })}
        {text('masteringStudio')}
        {text('recordingDate', undefined, { type: 'date' })}
      </TabsContent>

      <TabsContent value="legal" className="grid data-[state=inactive]:hidden gap-4 pt-4 sm:grid-cols-2">
        {text('copyrightLine', undefined, { placeholder: '℗ 2025 Your Label' })}
        {text('publishingLine', undefined, { placeholder: '© 2025 Your Publisher' })}
        {text('pro', undefined, { placeholder: 'e.g. ASCAP, BMI, PRS' })}
        {text('ipi')}
        {text('iswc')}
        {text('isni')}
        <p className="rounded-md bg-muted px-3 py-2 text-sm text-muted-foreground sm:col-span-2" role="note">
          ISRC and UPC codes are auto-generated when you submit.
        </p>
      </TabsContent>

      <TabsContent value="content" className="grid data-[state=inactive]:hidden gap-4 pt-4">
        {area('summary', undefined, undefined, 3)}
        {area('lyrics', undefined, undefined, 8)}
      </TabsContent>
    </Tabs>
  );
}

/**
 * A file input that shows the chosen file even after the tab was left and re-entered (the input
 * itself is re-created empty then; the File lives in the page's state). The stores' rule for the file is
 * said under it and checked here, from the file's header, as soon as it is chosen (issue 21 §3.7).
 */
function FilePicker({
  label,
  accept,
  rule,
  file,
  check,
  testId,
  disabled,
  onFile,
}: {
  label: string;
  accept: string;
  rule: string;
  file: File | null;
  check: (file: File) => Promise<FileCheck>;
  testId: string;
  disabled: boolean;
  onFile: (file: File | null) => void;
}) {
  const id = useId();
  const result = useFileCheck(file, check);
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <input
        id={id}
        type="file"
        accept={accept}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        aria-invalid={result && result.problems.length > 0 ? true : undefined}
        className="block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-secondary file:px-3 file:py-2 file:text-sm file:font-medium"
        onChange={(event) => onFile(event.target.files?.[0] ?? null)}
      />
      <div id={`${id}-hint`} className="space-y-1 text-xs">
        {file ? (
          <p className="text-muted-foreground">
            Selected: {file.name} ({formatBytes(file.size)})
          </p>
        ) : null}
        <FileCheckNote rule={rule} result={result} chosen={!!file} testId={testId} />
      </div>
    </div>
  );
}
