import { Card, CardContent, CardDescription, CardHeader, CardTitle, FormField, toast } from '@omni/ui';
import { useState } from 'react';
import { formatBytes } from '../../lib/artist-upload-flow';
import { BUCKET_DESCRIPTION, type ConsoleBucket, fitsBucket } from '../../lib/console-buckets';
import { signContributorUpload, submitContributorUpload } from '../../lib/contributor-api';
import { errorMessage } from '../../lib/error-message';
import { putToSignedUrl } from '../../lib/upload';
import { BucketFilePicker } from '../uploader/bucket-file-picker';
import { UploadProgress } from '../uploader/upload-progress';
import type { UploadedItem } from '../uploader/uploaded-list';

interface ContributorFilesProps {
  token: string;
  /** Called with each file the server accepted (pending review), and after each submission. */
  onUploaded: (item: UploadedItem) => void;
}

/**
 * The contributor's file upload: bucket, folder, picker or drop, then sign with the link's token, PUT with
 * every header the sign call asked for (progress shown), and record the submission (one use of the link).
 */
export function ContributorFiles({ token, onUploaded }: ContributorFilesProps) {
  const [bucket, setBucket] = useState<ConsoleBucket>('documents');
  const [folder, setFolder] = useState('');
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState(0);
  const [status, setStatus] = useState('');

  async function upload(files: File[]) {
    if (files.length === 0) return;
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
        const signed = await signContributorUpload(token, {
          bucket,
          file,
          ...(trimmed ? { folder: trimmed } : {}),
        });
        await putToSignedUrl(signed, file, ({ percent }) => {
          setProgress(percent);
          setStatus(`${prefix}Uploading ${file.name}: ${percent}%`);
        });
        const done = await submitContributorUpload(token, { bucket: signed.bucket, fileKey: signed.fileKey });
        setProgress(100);
        setStatus(`${prefix}Uploaded ${file.name} to ${done.path}. Submitted for review.`);
        onUploaded({ path: done.path, url: done.url });
      }
    } catch (error) {
      const message = errorMessage(error, 'Upload failed');
      toast.error(message);
      setStatus(`Error: ${message}`);
      setProgress(0);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Upload files</CardTitle>
        <CardDescription>Each file is reviewed before it is published.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        <BucketFilePicker
          bucket={bucket}
          onBucketChange={setBucket}
          busy={busy}
          onFiles={(f) => void upload(f)}
        >
          <FormField
            label="Folder path (optional)"
            hint="Folders inside the bucket, like photos/live. Your account (or anon) and today's date come first."
            value={folder}
            disabled={busy}
            placeholder="e.g. photos/live"
            onChange={(event) => setFolder(event.target.value)}
          />
        </BucketFilePicker>
        <UploadProgress busy={busy} progress={progress} status={status} />
      </CardContent>
    </Card>
  );
}
