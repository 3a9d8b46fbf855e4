import type { ResolveUnmatchedBody } from '@omni/proto/api';
import {
  Button,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  Input,
  Label,
} from '@omni/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { describeGroup, identifierLabel, type UnmatchedGroup } from './unmatched-words';

/** An Omni ISRC (CC-XXX-YY-NNNNN, hyphens optional) or a release's UPC/EAN (12 or 13 digits). */
function normalise(value: string): string {
  return value.trim().replace(/[\s-]/g, '').toUpperCase();
}
const looksRight = (value: string) => /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/.test(value) || /^\d{12,13}$/.test(value);

interface ResolveProps {
  group: UnmatchedGroup | null;
  onCancel: () => void;
  /** Resolves once the server agreed; the dialog stays open, with the server's words, if it throws. */
  onConfirm: (body: ResolveUnmatchedBody) => Promise<void>;
}

function useSubmit(open: boolean, onConfirm: ResolveProps['onConfirm']) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) setError(null);
  }, [open]);
  async function submit(body: ResolveUnmatchedBody) {
    setBusy(true);
    setError(null);
    try {
      await onConfirm(body);
    } catch (failure) {
      setError(
        failure instanceof Error && failure.message ? failure.message : 'That did not work. Try again.',
      );
    } finally {
      setBusy(false);
    }
  }
  return { error, setError, busy, submit };
}

/** 'Attach to a recording': the Omni ISRC or release UPC the store's lines belong to. */
export function AttachDialog({ group, onCancel, onConfirm }: ResolveProps) {
  const [to, setTo] = useState('');
  const { error, setError, busy, submit } = useSubmit(group !== null, onConfirm);
  useEffect(() => {
    if (group) setTo('');
  }, [group]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!group) return;
    const target = normalise(to);
    if (!looksRight(target)) {
      setError('Enter an ISRC (like USRC17607839) or a UPC of 12 or 13 digits.');
      return;
    }
    void submit({ action: 'attach', identifier: group.identifier, to: target });
  }

  return (
    <Dialog open={group !== null} onOpenChange={(open) => (open ? undefined : onCancel())}>
      <DialogContent className="max-w-[calc(100vw-2rem)] rounded-lg sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Attach to a recording</DialogTitle>
          <DialogDescription>
            {group ? (
              <>
                {describeGroup(group)} The lines count as the Omni recording's or release's sales from now on.
              </>
            ) : null}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor="attach-to">Omni ISRC or release UPC *</Label>
            <Input
              id="attach-to"
              value={to}
              onChange={(event) => {
                setTo(event.target.value);
                setError(null);
              }}
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              aria-required="true"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'attach-to-error' : 'attach-to-hint'}
            />
            {error ? (
              <p id="attach-to-error" role="alert" className="text-sm font-medium text-destructive">
                {error}
              </p>
            ) : (
              <p id="attach-to-hint" className="text-xs text-muted-foreground">
                The recording's ISRC, or the UPC of the release when the store reported a release.
              </p>
            )}
          </div>
          <DialogFooter className="gap-2">
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Attaching…' : 'Attach'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** 'Not ours': the lines are for music Omni does not distribute; they leave the queue. */
export function NotOursDialog({ group, onCancel, onConfirm }: ResolveProps) {
  const { error, busy, submit } = useSubmit(group !== null, onConfirm);
  return (
    <Dialog open={group !== null} onOpenChange={(open) => (open ? undefined : onCancel())}>
      <DialogContent className="max-w-[calc(100vw-2rem)] rounded-lg sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Not ours?</DialogTitle>
          <DialogDescription>
            {group ? (
              <>
                {describeGroup(group)} Mark {identifierLabel(group)} as not Omni's: no Omni recording or
                release is credited with its lines, and they leave the open queue.
              </>
            ) : null}
          </DialogDescription>
        </DialogHeader>
        {error ? (
          <p role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        ) : null}
        <DialogFooter className="gap-2">
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            type="button"
            variant="destructive"
            disabled={busy}
            onClick={() =>
              group ? void submit({ action: 'not_ours', identifier: group.identifier }) : undefined
            }
          >
            {busy ? 'Marking…' : 'Not ours'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
