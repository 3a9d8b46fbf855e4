// The owner's choices on a lapsed invitation, as /app/splits offers them (use-cases/splits.ts: the owner is
// told and chooses — send again, give to someone else, take it back). Each calls the release's invitation
// endpoint and then refreshes the overview, so the row moves to pending or leaves the lapsed list.
import { Button, Input, toast } from '@omni/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/error-message';
import { actOnInvitation } from '../../lib/splits-api';

export function LapseChoices({
  releaseId,
  invitationId,
  email,
}: {
  releaseId: string;
  invitationId: string;
  email: string;
}) {
  const client = useQueryClient();
  const [reassigning, setReassigning] = useState(false);
  const [to, setTo] = useState('');
  const act = useMutation({
    mutationFn: (body: Parameters<typeof actOnInvitation>[2]) =>
      actOnInvitation(releaseId, invitationId, body),
    onSuccess: async (_next, body) => {
      toast.success(
        body.action === 'take_back'
          ? `The share of ${email} is yours again, with what it held.`
          : body.action === 'resend'
            ? `A new invitation went to ${email}; the old link no longer works.`
            : `The share now waits for ${body.email}; we emailed them the link.`,
      );
      await client.invalidateQueries({ queryKey: ['me', 'splits'] });
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
