import { AUTH_MESSAGES, MIN_PASSWORD_LENGTH } from '@omni/proto/api';
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
import { changePassword } from '../../lib/account-api';
import { errorMessage } from '../../lib/error-message';

/** The current password first; every other session is signed out, this one goes on. */
export function PasswordCard() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ next?: string; confirm?: string }>({});
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found = {
      next: next.length < MIN_PASSWORD_LENGTH ? AUTH_MESSAGES.passwordTooShort : undefined,
      confirm: confirm !== next ? AUTH_MESSAGES.passwordsDontMatch : undefined,
    };
    setErrors(found);
    if (found.next || found.confirm) return;
    setBusy(true);
    try {
      toast.success(await changePassword(current, next), { id: 'account-password' });
      setCurrent('');
      setNext('');
      setConfirm('');
    } catch (err) {
      toast.error(errorMessage(err, 'Could not change the password. Please try again.'), {
        id: 'account-password',
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Password</CardTitle>
        <CardDescription>Changing it signs you out everywhere else.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-3 sm:grid-cols-3" onSubmit={onSubmit} noValidate>
          <FormField
            label="Current password"
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
          <FormField
            label="New password"
            type="password"
            autoComplete="new-password"
            value={next}
            error={errors.next}
            onChange={(e) => setNext(e.target.value)}
          />
          <FormField
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            value={confirm}
            error={errors.confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
          <div className="sm:col-span-3">
            <Button type="submit" disabled={busy}>
              {busy ? 'Saving…' : 'Change password'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
