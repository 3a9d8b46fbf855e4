import { zodResolver } from '@hookform/resolvers/zod';
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
import { type ReactNode, useEffect } from 'react';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';

/** The contract's rule for the reason (cms's rejectBody, delivery's rejectReleaseBody). */
type ReasonSchema = z.ZodMiniObject<{ reason: z.ZodMiniType<string, string> }>;

interface RejectDialogProps {
  /** What is rejected (its title), or null when the dialog is closed. */
  title: string | null;
  schema: ReasonSchema;
  maxLength: number;
  heading: string;
  description: (title: string) => ReactNode;
  confirmLabel: string;
  /** Prefix of the field's ids (two dialogs on one page must not share them). */
  idPrefix: string;
  onCancel: () => void;
  /** Resolves once the server answered; the dialog stays open (reason kept) if it throws. */
  onConfirm: (reason: string) => Promise<void>;
}

/**
 * Rejecting with a reason the other side reads: an asset (moderation, spec §5) or a release (review). The
 * reason is required by the contract's schema and checked here before anything is sent.
 */
export function RejectDialog({
  title,
  schema,
  maxLength,
  heading,
  description,
  confirmLabel,
  idPrefix,
  onCancel,
  onConfirm,
}: RejectDialogProps) {
  const form = useForm<{ reason: string }>({ resolver: zodResolver(schema), defaultValues: { reason: '' } });
  const { errors, isSubmitting } = form.formState;
  const open = title !== null;
  useEffect(() => {
    if (open) form.reset({ reason: '' });
  }, [open, form]);

  const submit = form.handleSubmit(async ({ reason }) => {
    await onConfirm(reason).catch(() => undefined);
  });
  const fieldId = `${idPrefix}-reason`;

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onCancel())}>
      <DialogContent className="max-w-[calc(100vw-2rem)] rounded-lg sm:max-w-md">
        <DialogHeader>
          <DialogTitle>{heading}</DialogTitle>
          <DialogDescription>{description(title || 'Untitled')}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor={fieldId}>Reason *</Label>
            <Textarea
              id={fieldId}
              rows={4}
              maxLength={maxLength}
              aria-required="true"
              aria-invalid={errors.reason ? true : undefined}
              aria-describedby={errors.reason ? `${fieldId}-error` : undefined}
              {...form.register('reason')}
            />
            {errors.reason ? (
              <p id={`${fieldId}-error`} className="text-sm font-medium text-destructive">
                {errors.reason.message}
              </p>
            ) : null}
          </div>
          <DialogFooter className="gap-2">
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={isSubmitting}>
              {confirmLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
