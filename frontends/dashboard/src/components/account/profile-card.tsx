import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  FormField,
  toast,
  updateDisplayName,
} from '@omni/ui';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../lib/error-message';

const MAX_NAME = 80;

/**
 * The display name. Saving updates the page's session (updateDisplayName), which the header and the
 * dashboard's welcome read: both show the new name at once, not after the next sign-in.
 */
export function ProfileCard({ userId, initialName }: { userId: string; initialName: string }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(initialName);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (name.trim().length > MAX_NAME) return setError(`Display name must be at most ${MAX_NAME} characters`);
    setError(undefined);
    setBusy(true);
    try {
      await updateDisplayName(name.trim());
      await queryClient.invalidateQueries({ queryKey: ['account', userId] });
      toast.success('Display name saved', { id: 'account-profile' });
    } catch (err) {
      toast.error(errorMessage(err, 'Could not save the name. Please try again.'), { id: 'account-profile' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
        <CardDescription>
          The name Omni greets you with. Leave it empty to be greeted as Artist.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={onSubmit} noValidate>
          <FormField
            className="flex-1"
            label="Display name"
            autoComplete="name"
            value={name}
            error={error}
            maxLength={MAX_NAME + 20}
            onChange={(e) => setName(e.target.value)}
          />
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Save name'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
