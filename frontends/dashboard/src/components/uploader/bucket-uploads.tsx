import { Card, CardContent, CardHeader, CardTitle, FormField, toast, useSession } from '@omni/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatBytes } from '../../lib/artist-upload-flow';
import { BUCKET_DESCRIPTION, type ConsoleBucket, fitsBucket } from '../../lib/console-buckets';
import { errorMessage } from '../../lib/error-message';
import { fetchUploads } from '../../lib/releases-api';
import { uploadFile } from '../../lib/upload';
import { BucketFilePicker } from './bucket-file-picker';
import { UploadProgress } from './upload-progress';
import { UploadedList } from './uploaded-list';

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

/** The console's storage part: bucket choice, tiles, drop zone, subfolder, progress and the file list. */
export function BucketUploads() {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const [bucket, setBucket] = useState<ConsoleBucket>('documents');
  const [folder, setFolder] = useState('');
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState(0);
  const [status, setStatus] = useState('');
  const [recent, setRecent] = useState<Uploaded[]>([]);
  const earlier = useQuery({
    queryKey: ['uploads', session?.user.id],
    queryFn: () => fetchUploads(20),
    enabled: !!session,
  });

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
        <BucketFilePicker
          bucket={bucket}
          onBucketChange={setBucket}
          busy={busy}
          onFiles={(files) => void upload(files)}
        >
          <FormField
            label="Subfolder (optional)"
            hint="Your user id and today's date are added in front automatically."
            value={folder}
            disabled={busy}
            placeholder="e.g. summer-campaign"
            onChange={(event) => setFolder(event.target.value)}
          />
        </BucketFilePicker>

        <UploadProgress busy={busy} progress={progress} status={status} />

        <UploadedList
          items={listed.map((file) => ({ path: `${file.bucket}/${file.fileKey}`, url: file.publicUrl }))}
        />
      </CardContent>
    </Card>
  );
}
