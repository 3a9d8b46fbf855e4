import { CONTRIBUTOR_SUBMISSION } from '@omni/proto/api';
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
 * The contributor's file upload: a title (required: the reviewers see it), bucket, folder, picker or drop;
 * each file is signed with the link's token and PUT with every header the sign call asked for (progress
 * shown), then all of them are recorded as one submission (one use of the link, however many files).
 */
export function ContributorFiles({ token, onUploaded }: ContributorFilesProps) {
  const [bucket, setBucket] = useState<ConsoleBucket>('documents');
  const [folder, setFolder] = useState('');
  const [title, setTitle] = useState('');
  const [titleError, setTitleError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState(0);
  const [status, setStatus] = useState('');

  async function upload(files: File[]) {
    if (files.length === 0) return;
    // Asked before a byte is sent: a submission without a title would only be refused after the upload.
    if (!title.trim()) {
      setTitleError(CONTRIBUTOR_SUBMISSION.titleRequired);
      toast.error(CONTRIBUTOR_SUBMISSION.titleRequired);
      return;
    }
    if (files.length > CONTRIBUTOR_SUBMISSION.maxFiles) {
      toast.error(CONTRIBUTOR_SUBMISSION.tooManyFiles);
      return;
    }
    setTitleError(undefined);
    setBusy(true);
    try {
      const sent: { bucket: string; fileKey: string }[] = [];
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
        sent.push({ bucket: signed.bucket, fileKey: signed.fileKey });
      }
      const done = await submitContributorUpload(token, { title: title.trim(), files: sent });
      setProgress(100);
      const count = done.files.length || 1;
      setStatus(
        count > 1
          ? `Uploaded ${count} files as “${title.trim()}”. Submitted for review.`
          : `Uploaded ${files[0]!.name} to ${done.path}. Submitted for review.`,
      );
      for (const item of done.files.length ? done.files : [done])
        onUploaded({ path: item.path, url: item.url });
      setTitle('');
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
        <CardDescription>
          Everything you pick at once is one submission: it uses one of the link's uses, and each file is
          reviewed before it is published.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        <FormField
          label="Title *"
          hint="What the reviewers see for this submission, e.g. Live photos, Berlin."
          value={title}
          required
          maxLength={200}
          disabled={busy}
          error={titleError}
          onChange={(event) => {
            setTitle(event.target.value);
            if (event.target.value.trim()) setTitleError(undefined);
          }}
        />
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
