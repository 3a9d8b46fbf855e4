import { Progress } from '@omni/ui';

/** The bar and the status line under an upload (hidden until the first upload starts). */
export function UploadProgress({
  busy,
  progress,
  status,
}: {
  busy: boolean;
  progress: number;
  status: string;
}) {
  if (!busy && !status) return null;
  return (
    <div className="space-y-1">
      <Progress value={progress} aria-label="Upload progress" />
      <p className="break-words text-sm" role="status" data-testid="upload-status">
        {status}
      </p>
    </div>
  );
}
