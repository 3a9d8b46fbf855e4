import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  FormField,
  toast,
} from '@omni/ui';
import { type FormEvent, useState } from 'react';
import { requestEmailChange } from '../../lib/account-api';
import { errorMessage } from '../../lib/error-message';

/** A new address takes effect only once the link mailed to it is followed (it lands on /account). */
export function EmailCard({ email }: { email: string }) {
  const [next, setNext] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const message = await requestEmailChange(next.trim(), password);
      setSent(message);
      setPassword('');
      toast.success('Check your new address', { id: 'account-email', description: message });
    } catch (err) {
      toast.error(errorMessage(err, 'Could not start the change. Please try again.'), {
        id: 'account-email',
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Email</CardTitle>
        <CardDescription>
          You sign in with <span className="font-medium text-foreground">{email}</span>. A new address is used
          once you follow the link we send to it.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-3 sm:grid-cols-2" onSubmit={onSubmit} noValidate>
          <FormField
            label="New email"
            type="email"
            autoComplete="email"
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
          <FormField
            label="Current password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <div className="sm:col-span-2">
            <Button type="submit" disabled={busy}>
              {busy ? 'Sending…' : 'Change email'}
            </Button>
          </div>
          {sent ? (
            <p
              className="rounded-md bg-muted px-3 py-2 text-sm sm:col-span-2"
              role="status"
              data-testid="email-change-sent"
            >
              {sent}
            </p>
          ) : null}
        </form>
      </CardContent>
    </Card>
  );
}
