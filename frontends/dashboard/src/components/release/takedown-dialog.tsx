import type { DeliveryJobJson } from '@omni/proto/api';
import {
  Button,
  Checkbox,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
  Label,
  toast,
} from '@omni/ui';
import { useState } from 'react';
import { purgeRelease, reReleaseRelease, takeDownRelease } from '../../lib/releases-api';

/**
 * Takedown (the artist: a NewReleaseMessage with no deals), release again (a new delivery to stores it was
 * taken down from) or purge (admins: PurgeReleaseMessage).
 */
const ACTIONS = {
  takedown: {
    label: 'Take down',
    busy: 'Taking down…',
    heading: (title: string) => `Take down “${title}”`,
    description:
      'Each store removes the release once it processes the takedown. You can release it again later.',
    failed: 'The takedown could not be queued.',
    send: takeDownRelease,
    variant: 'destructive',
  },
  rerelease: {
    label: 'Release again',
    busy: 'Releasing…',
    heading: (title: string) => `Release “${title}” again`,
    description:
      'Each chosen store gets the release anew, as a new delivery; you can follow it below as before.',
    failed: 'The release could not be queued again.',
    send: reReleaseRelease,
    variant: 'default',
  },
  purge: {
    label: 'Purge',
    busy: 'Purging…',
    heading: (title: string) => `Purge “${title}”`,
    description:
      'Each store deletes the release and everything it holds of it (a PurgeReleaseMessage). It cannot be released there again without a new delivery.',
    failed: 'The purge could not be queued.',
    send: purgeRelease,
    variant: 'destructive',
  },
} as const;

interface TakedownDialogProps {
  /** Default takedown. */
  action?: keyof typeof ACTIONS;
  releaseId: string;
  title: string;
  /** The stores the action applies to (for a takedown, those it can still be taken down from). */
  jobs: DeliveryJobJson[];
  /** After the takedown was queued: follow the new jobs. */
  onQueued: () => void;
}

/** 'Take down', 'Release again' (or, for admins, 'Purge'): every store, or the ones chosen. */
export function TakedownDialog({
  action = 'takedown',
  releaseId,
  title,
  jobs,
  onQueued,
}: TakedownDialogProps) {
  const words = ACTIONS[action];
  const [open, setOpen] = useState(false);
  const [scope, setScope] = useState<'all' | 'some'>('all');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const none = scope === 'some' && chosen.size === 0;

  function toggle(target: string, on: boolean) {
    setChosen((prev) => {
      const next = new Set(prev);
      if (on) next.add(target);
      else next.delete(target);
      return next;
    });
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (none) {
      setError('Choose at least one store.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { message } = await words.send(releaseId, scope === 'all' ? [] : [...chosen]);
      toast.success(message);
      setOpen(false);
      onQueued();
    } catch (err) {
      // Kept open with the choice as it was, so the artist can try again.
      setError(err instanceof Error ? err.message : words.failed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setScope('all');
          setChosen(new Set());
          setError(null);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" disabled={jobs.length === 0}>
          {words.label}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-[calc(100vw-2rem)] rounded-lg sm:max-w-md">
        <DialogHeader>
          <DialogTitle>{words.heading(title)}</DialogTitle>
          <DialogDescription>{words.description}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="space-y-4">
          <fieldset className="space-y-2">
            <legend className="sr-only">Stores</legend>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={`${action}-scope`}
                checked={scope === 'all'}
                onChange={() => setScope('all')}
              />
              All stores ({jobs.length})
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={`${action}-scope`}
                checked={scope === 'some'}
                onChange={() => setScope('some')}
              />
              Only the stores I choose
            </label>
          </fieldset>
          {scope === 'some' ? (
            <ul className="grid max-h-60 gap-2 overflow-y-auto rounded-md border p-3 sm:grid-cols-2">
              {jobs.map((job) => (
                <li key={job.target} className="flex items-center gap-2">
                  <Checkbox
                    id={`${action}-${job.target}`}
                    checked={chosen.has(job.target)}
                    onCheckedChange={(on) => toggle(job.target, on === true)}
                  />
                  <Label htmlFor={`${action}-${job.target}`} className="font-normal">
                    {job.storeName || job.target}
                  </Label>
                </li>
              ))}
            </ul>
          ) : null}
          {error ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {error}
            </p>
          ) : null}
          <DialogFooter className="gap-2">
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant={words.variant} disabled={busy}>
              {busy ? words.busy : words.label}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
