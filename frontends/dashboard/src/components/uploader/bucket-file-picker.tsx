import { Button } from '@omni/ui';
import { FileText, FileVideo, Image, Images, Music, Newspaper, ScrollText, UploadCloud } from 'lucide-react';
import { type DragEvent, type ReactNode, useRef, useState } from 'react';
import {
  BUCKET_ACCEPT,
  BUCKET_DESCRIPTION,
  CONSOLE_BUCKETS,
  type ConsoleBucket,
} from '../../lib/console-buckets';

const ICONS: Record<ConsoleBucket, ReactNode> = {
  documents: <FileText className="h-6 w-6" aria-hidden="true" />,
  artwork: <Image className="h-6 w-6" aria-hidden="true" />,
  audio: <Music className="h-6 w-6" aria-hidden="true" />,
  video: <FileVideo className="h-6 w-6" aria-hidden="true" />,
  contracts: <ScrollText className="h-6 w-6" aria-hidden="true" />,
  thumbnails: <Images className="h-6 w-6" aria-hidden="true" />,
  presskits: <Newspaper className="h-6 w-6" aria-hidden="true" />,
};

interface BucketFilePickerProps {
  bucket: ConsoleBucket;
  onBucketChange: (bucket: ConsoleBucket) => void;
  busy: boolean;
  /** Files chosen in the picker or dropped on the zone. */
  onFiles: (files: File[]) => void;
  /** Shown between the tiles and the drop zone (the folder field). */
  children?: ReactNode;
}

/**
 * The seven buckets (radio choice and icon tiles), the file picker limited to the chosen bucket's types,
 * and the drag-and-drop zone: what /uploader and the contributor page share.
 */
export function BucketFilePicker({ bucket, onBucketChange, busy, onFiles, children }: BucketFilePickerProps) {
  const picker = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  // A tile picks its bucket and opens the picker restricted to that bucket's types. The input's
  // `accept` is set directly because React would only apply the new value after this click.
  function openPicker(next: ConsoleBucket) {
    onBucketChange(next);
    const input = picker.current;
    if (!input) return;
    const accept = BUCKET_ACCEPT[next];
    if (accept) input.accept = accept;
    else input.removeAttribute('accept');
    input.click();
  }

  function onDrop(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    setDragging(false);
    if (!busy) onFiles(Array.from(event.dataTransfer.files));
  }

  return (
    <>
      <fieldset>
        <legend className="mb-2 text-sm font-medium">Bucket</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2" role="radiogroup">
          {CONSOLE_BUCKETS.map((name) => (
            <label key={name} className="flex items-center gap-1.5 text-sm">
              <input
                type="radio"
                name="bucket"
                value={name}
                className="accent-primary"
                checked={bucket === name}
                disabled={busy}
                onChange={() => onBucketChange(name)}
              />
              {name}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
        {CONSOLE_BUCKETS.map((name) => (
          <button
            key={name}
            type="button"
            disabled={busy}
            aria-label={`Upload to ${name}`}
            data-testid={`tile-${name}`}
            onClick={() => openPicker(name)}
            className={`flex flex-col items-center gap-1 rounded-lg border p-3 text-sm transition-colors hover:bg-accent disabled:opacity-50 ${bucket === name ? 'border-primary bg-primary/5' : ''}`}
          >
            {ICONS[name]}
            <span className="font-medium">{name}</span>
            <span className="text-xs text-muted-foreground">{BUCKET_DESCRIPTION[name]}</span>
          </button>
        ))}
      </div>
      <input
        ref={picker}
        type="file"
        multiple
        className="sr-only"
        tabIndex={-1}
        aria-label="Choose files"
        data-testid="bucket-file-input"
        accept={BUCKET_ACCEPT[bucket]}
        onChange={(event) => {
          const chosen = Array.from(event.target.files ?? []);
          event.target.value = '';
          onFiles(chosen);
        }}
      />

      {children}

      <section
        aria-label="Drop files here"
        data-testid="drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`flex flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed p-8 text-center text-sm ${dragging ? 'border-primary bg-primary/5' : 'text-muted-foreground'}`}
      >
        <UploadCloud className="h-8 w-8" aria-hidden="true" />
        <p>
          Drag and drop files here to upload them to{' '}
          <span className="font-medium text-foreground">{bucket}</span>
        </p>
        <Button variant="outline" size="sm" disabled={busy} onClick={() => openPicker(bucket)}>
          Browse files
        </Button>
      </section>
    </>
  );
}
