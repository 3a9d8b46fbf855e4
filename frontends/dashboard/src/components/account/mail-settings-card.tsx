import { Card, CardContent, CardDescription, CardHeader, CardTitle, Label, Switch, toast } from '@omni/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type Account, type MailSettings, saveMailSettings } from '../../lib/account-api';
import { errorMessage } from '../../lib/error-message';

const KINDS: { key: keyof MailSettings; label: string; text: string }[] = [
  {
    key: 'releases',
    label: 'Release updates',
    text: 'When a release is approved, needs changes, is refused by a store, goes live or is taken down.',
  },
  { key: 'billing', label: 'Billing', text: 'When a subscription payment fails.' },
];

/** Which mails Omni sends; sign-in, verification and reset mails always go (they protect the account). */
export function MailSettingsCard({ userId, mail }: { userId: string; mail: MailSettings }) {
  const queryClient = useQueryClient();
  const key = ['account', userId];
  const save = useMutation({
    mutationFn: saveMailSettings,
    // Shown at once; put back if the server refused.
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<Account>(key);
      if (before) queryClient.setQueryData<Account>(key, { ...before, mail: { ...before.mail, ...change } });
      return { before };
    },
    onError: (err, _change, context) => {
      if (context?.before) queryClient.setQueryData(key, context.before);
      toast.error(errorMessage(err, 'Could not save the setting. Please try again.'), { id: 'account-mail' });
    },
    onSuccess: () => toast.success('Email settings saved', { id: 'account-mail' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Email notifications</CardTitle>
        <CardDescription>
          Security mails (sign-in links, verification, password and email changes) are always sent.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {KINDS.map(({ key: kind, label, text }) => (
          <div key={kind} className="flex items-start justify-between gap-4">
            <div>
              <Label htmlFor={`mail-${kind}`}>{label}</Label>
              <p className="text-sm text-muted-foreground">{text}</p>
            </div>
            <Switch
              id={`mail-${kind}`}
              checked={mail[kind]}
              disabled={save.isPending}
              onCheckedChange={(on) => save.mutate({ [kind]: on })}
            />
          </div>
        ))}
      </CardContent>
    </Card>
  );
}
