import { zodResolver } from '@hookform/resolvers/zod';
import { REJECTION_REASON_MAX, rejectReleaseBody } from '@omni/proto/api';
import {
  Button,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  Label,
  Textarea,
} from '@omni/ui';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type * as z from 'zod/mini';

type RejectForm = z.input<typeof rejectReleaseBody>;

interface RejectReleaseDialogProps {
  /** The release being rejected, or null when the dialog is closed. */
  title: string | null;
  onCancel: () => void;
  /** Resolves once the server answered; the dialog stays open (reason kept) if it throws. */
  onConfirm: (reason: string) => Promise<void>;
}

/** 'Reject Release': the artist sees the reason and fixes the release by it, so one is required. */
export function RejectReleaseDialog({ title, onCancel, onConfirm }: RejectReleaseDialogProps) {
  const form = useForm<RejectForm, unknown, z.output<typeof rejectReleaseBody>>({
    resolver: zodResolver(rejectReleaseBody),
    defaultValues: { reason: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const open = title !== null;
  useEffect(() => {
    if (open) form.reset({ reason: '' });
  }, [open, form]);

  const submit = form.handleSubmit(async ({ reason }) => {
    await onConfirm(reason).catch(() => undefined);
  });

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onCancel())}>
      <DialogContent className="max-w-[calc(100vw-2rem)] rounded-lg sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Reject Release</DialogTitle>
          <DialogDescription>
            Tell the artist what to fix in “{title || 'Untitled'}”. They see your words as you write them.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor="reject-release-reason">Reason *</Label>
            <Textarea
              id="reject-release-reason"
              rows={4}
              maxLength={REJECTION_REASON_MAX}
              aria-required="true"
              aria-invalid={errors.reason ? true : undefined}
              aria-describedby={errors.reason ? 'reject-release-reason-error' : undefined}
              {...form.register('reason')}
            />
            {errors.reason ? (
              <p id="reject-release-reason-error" className="text-sm font-medium text-destructive">
                {errors.reason.message}
              </p>
            ) : null}
          </div>
          <DialogFooter className="gap-2">
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={isSubmitting}>
              Reject Release
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
