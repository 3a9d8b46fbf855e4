import {
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  FormField,
  Progress,
  toast,
  useSession,
} from '@omni/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Copy,
  FileText,
  FileVideo,
  Image,
  Images,
  Music,
  Newspaper,
  ScrollText,
  UploadCloud,
} from 'lucide-react';
import { type DragEvent, type ReactNode, useRef, useState } from 'react';
import { formatBytes } from '../../lib/artist-upload-flow';
import {
  BUCKET_ACCEPT,
  BUCKET_DESCRIPTION,
  CONSOLE_BUCKETS,
  type ConsoleBucket,
  fitsBucket,
} from '../../lib/console-buckets';
import { errorMessage } from '../../lib/error-message';
import { fetchUploads } from '../../lib/releases-api';
import { uploadFile } from '../../lib/upload';

const ICONS: Record<ConsoleBucket, ReactNode> = {
  documents: <FileText className="h-6 w-6" aria-hidden="true" />,
  artwork: <Image className="h-6 w-6" aria-hidden="true" />,
  audio: <Music className="h-6 w-6" aria-hidden="true" />,
  video: <FileVideo className="h-6 w-6" aria-hidden="true" />,
  contracts: <ScrollText className="h-6 w-6" aria-hidden="true" />,
  thumbnails: <Images className="h-6 w-6" aria-hidden="true" />,
  presskits: <Newspaper className="h-6 w-6" aria-hidden="true" />,
};

interface Uploaded {
  bucket: string;
  fileKey: string;
  publicUrl: string;
}

/** Spec section 8: a missing bucket reads 'Bucket "{bucket}" missing...'; the audio one names the fix. */
function uploadErrorText(bucket: string, message: string): string {
  if (/does not exist|missing/i.test(message) && bucket === 'audio') {
    return 'Audio bucket missing. Create "audio" in Storage.';
  }
  if (/does not exist/i.test(message)) return `Bucket "${bucket}" missing...`;
  return message;
}

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API refused (no permission, insecure context): the old way still works in most browsers.
    const area = document.createElement('textarea');
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
  toast.success('Copied!');
}

/** The console's storage part: bucket choice, tiles, drop zone, subfolder, progress and the file list. */
export function BucketUploads() {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const picker = useRef<HTMLInputElement>(null);
  const [bucket, setBucket] = useState<ConsoleBucket>('documents');
  const [folder, setFolder] = useState('');
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState(0);
  const [status, setStatus] = useState('');
  const [recent, setRecent] = useState<Uploaded[]>([]);
  const earlier = useQuery({
    queryKey: ['uploads', session?.user.id],
    queryFn: () => fetchUploads(20),
    enabled: !!session,
  });

  // A tile picks its bucket and opens the picker restricted to that bucket's types. The input's
  // `accept` is set directly because React would only apply the new value after this click.
  function openPicker(next: ConsoleBucket) {
    setBucket(next);
    const input = picker.current;
    if (!input) return;
    const accept = BUCKET_ACCEPT[next];
    if (accept) input.accept = accept;
    else input.removeAttribute('accept');
    input.click();
  }

  async function upload(files: File[]) {
    if (files.length === 0) return;
    if (!session) {
      toast.error('Sign in first.');
      setStatus('Sign in first.');
      return;
    }
    setBusy(true);
    try {
      for (const [index, file] of files.entries()) {
        if (!fitsBucket(bucket, file)) {
          throw new Error(
            `${file.name} does not belong in "${bucket}" (${BUCKET_DESCRIPTION[bucket]} only).`,
          );
        }
        const prefix = files.length > 1 ? `(${index + 1}/${files.length}) ` : '';
        setProgress(0);
        setStatus(`${prefix}Uploading ${file.name} (${formatBytes(file.size)})…`);
        const trimmed = folder.trim();
        const done = await uploadFile({
          bucket,
          purpose: 'console',
          file,
          ...(trimmed ? { folder: trimmed } : {}),
          onProgress: ({ percent }) => {
            setProgress(percent);
            setStatus(`${prefix}Uploading ${file.name}: ${percent}%`);
          },
        });
        setProgress(100);
        setStatus(`${prefix}Uploaded ${file.name} to ${done.bucket}/${done.fileKey}`);
        setRecent((list) => [
          { bucket: done.bucket, fileKey: done.fileKey, publicUrl: done.publicUrl },
          ...list,
        ]);
      }
      await queryClient.invalidateQueries({ queryKey: ['uploads'] });
    } catch (error) {
      const message = uploadErrorText(bucket, errorMessage(error, 'Upload failed'));
      toast.error(message);
      setStatus(`Error: ${message}`);
      setProgress(0);
    } finally {
      setBusy(false);
    }
  }

  function onDrop(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    setDragging(false);
    if (!busy) void upload(Array.from(event.dataTransfer.files));
  }

  // Files of this session first, then what the server remembers from before (without repeats).
  const seen = new Set(recent.map((file) => `${file.bucket}/${file.fileKey}`));
  const listed = [
    ...recent,
    ...(earlier.data ?? []).filter((file) => !seen.has(`${file.bucket}/${file.fileKey}`)),
  ];

  return (
    <Card>
      <CardHeader>
        <CardTitle>Storage Upload</CardTitle>
      </CardHeader>
      <CardContent className="space-y-5">
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
                  onChange={() => setBucket(name)}
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
            void upload(chosen);
          }}
        />

        <FormField
          label="Subfolder (optional)"
          hint="Your user id and today's date are added in front automatically."
          value={folder}
          disabled={busy}
          placeholder="e.g. summer-campaign"
          onChange={(event) => setFolder(event.target.value)}
        />

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

        {busy || status ? (
          <div className="space-y-1">
            <Progress value={progress} aria-label="Upload progress" />
            <p className="text-sm" role="status" data-testid="upload-status">
              {status}
            </p>
          </div>
        ) : null}

        <div>
          <h3 className="mb-2 text-sm font-semibold">Uploaded files</h3>
          {listed.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nothing uploaded yet.</p>
          ) : (
            <ul className="space-y-2" data-testid="uploaded-files">
              {listed.map((file) => (
                <li key={`${file.bucket}/${file.fileKey}`} className="flex items-center gap-2 text-sm">
                  <a
                    href={file.publicUrl}
                    target="_blank"
                    rel="noreferrer"
                    className="min-w-0 flex-1 truncate font-mono text-xs text-primary hover:underline"
                  >
                    {file.bucket}/{file.fileKey}
                  </a>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Copy link to ${file.fileKey}`}
                    onClick={() => copyText(new URL(file.publicUrl, window.location.href).href)}
                  >
                    <Copy aria-hidden="true" />
                    Copy
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
