import { zodResolver } from '@hookform/resolvers/zod';
import { rejectBody } from '@omni/proto/api';
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

type RejectForm = z.input<typeof rejectBody>;

interface RejectAssetDialogProps {
  /** The asset being rejected, or null when the dialog is closed. */
  title: string | null;
  onCancel: () => void;
  /** Resolves once the server answered; the dialog stays open (reason kept) if it throws. */
  onConfirm: (reason: string) => Promise<void>;
}

/** 'Reject Asset': a reason is required (spec §5) and is stored with the asset. */
export function RejectAssetDialog({ title, onCancel, onConfirm }: RejectAssetDialogProps) {
  const form = useForm<RejectForm, unknown, z.output<typeof rejectBody>>({
    resolver: zodResolver(rejectBody),
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
          <DialogTitle>Reject Asset</DialogTitle>
          <DialogDescription>
            Tell the contributor why “{title || 'Untitled'}” is not published.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor="reject-reason">Reason *</Label>
            <Textarea
              id="reject-reason"
              rows={4}
              maxLength={2000}
              aria-required="true"
              aria-invalid={errors.reason ? true : undefined}
              aria-describedby={errors.reason ? 'reject-reason-error' : undefined}
              {...form.register('reason')}
            />
            {errors.reason ? (
              <p id="reject-reason-error" className="text-sm font-medium text-destructive">
                {errors.reason.message}
              </p>
            ) : null}
          </div>
          <DialogFooter className="gap-2">
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={isSubmitting}>
              Confirm Rejection
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
