// The owner's choices on a pending or lapsed invitation (use-cases/splits.ts: a lapse is told to the owner,
// who chooses — send again, give to someone else, take it back), wherever they are offered: the release's
// Splits tab and /app/splits. Each calls the release's invitation endpoint; `onDone` gets the release's
// splits as they are after it (the tab shows them, the overview refreshes).
import { Button, Input, toast } from '@omni/ui';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/error-message';
import { actOnInvitation, type ReleaseSplits } from '../../lib/splits-api';

export function InvitationChoices({
  releaseId,
  invitationId,
  email,
  onDone,
}: {
  releaseId: string;
  invitationId: string;
  email: string;
  onDone: (next: ReleaseSplits) => void | Promise<void>;
}) {
  const [reassigning, setReassigning] = useState(false);
  const [to, setTo] = useState('');
  const act = useMutation({
    mutationFn: (body: Parameters<typeof actOnInvitation>[2]) =>
      actOnInvitation(releaseId, invitationId, body),
    onSuccess: async (next, body) => {
      toast.success(
        body.action === 'take_back'
          ? `The share of ${email} is yours again, with what it held.`
          : body.action === 'resend'
            ? `A new invitation went to ${email}; the old link no longer works.`
            : `The share now waits for ${body.email}; we emailed them the link.`,
      );
      setReassigning(false);
      await onDone(next);
    },
    onError: (error) => toast.error(errorMessage(error, 'Could not change the invitation.')),
  });
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        size="sm"
        variant="outline"
        disabled={act.isPending}
        onClick={() => act.mutate({ action: 'resend' })}
      >
        Send again
      </Button>
      {reassigning ? (
        <form
          className="flex flex-wrap items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (to.trim()) act.mutate({ action: 'reassign', email: to.trim() });
          }}
        >
          <Input
            type="email"
            aria-label={`Give the share of ${email} to`}
            placeholder="new@example.com"
            className="h-9 w-48"
            value={to}
            onChange={(e) => setTo(e.target.value)}
          />
          <Button size="sm" type="submit" disabled={act.isPending}>
            Give
          </Button>
        </form>
      ) : (
        <Button size="sm" variant="outline" onClick={() => setReassigning(true)}>
          Give to someone else
        </Button>
      )}
      <Button
        size="sm"
        variant="ghost"
        disabled={act.isPending}
        onClick={() => act.mutate({ action: 'take_back' })}
      >
        Take it back
      </Button>
    </div>
  );
}
