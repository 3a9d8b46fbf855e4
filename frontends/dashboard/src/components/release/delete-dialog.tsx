import {
  Button,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
  toast,
} from '@omni/ui';
import { useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { deleteRelease } from '../../lib/releases-api';

/** Delete a release no store has seen, with its files, after saying what goes. */
export function DeleteReleaseDialog({ releaseId, title }: { releaseId: string; title: string }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      toast.success(await deleteRelease(releaseId));
      queryClient.removeQueries({ queryKey: ['release', releaseId] });
      await queryClient.invalidateQueries({ queryKey: ['releases'] });
      await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
      setOpen(false);
      navigate('/releases');
    } catch (err) {
      // Approved or sent meanwhile: the message says to take it down instead.
      setError(err instanceof Error ? err.message : 'The release could not be deleted.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setError(null);
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm" variant="outline" className="text-destructive">
          <Trash2 aria-hidden="true" />
          Delete release
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-[calc(100vw-2rem)] rounded-lg sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Delete “{title}”?</DialogTitle>
          <DialogDescription>
            No store has this release yet. Deleting it removes it from review, with its tracks, its cover and
            its audio files. This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        {error ? (
          <p role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        ) : null}
        <DialogFooter className="gap-2">
          <Button type="button" variant="outline" onClick={() => setOpen(false)} disabled={busy}>
            Keep it
          </Button>
          <Button type="button" variant="destructive" onClick={confirm} disabled={busy}>
            {busy ? 'Deleting…' : 'Delete release'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
