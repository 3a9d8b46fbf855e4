import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
  FormField,
  Spinner,
  toast,
} from '@omni/ui';
import { getSessionStore } from '@omni/ui/session';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { type DeletionPreview, deleteAccount, fetchDeletionPreview } from '../../lib/account-api';
import { errorMessage } from '../../lib/error-message';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What deleting does, from the server's own count (the same facts the deletion acts on). */
function Consequences({ preview }: { preview: DeletionPreview }) {
  return (
    <ul className="list-disc space-y-1 pl-5 text-sm" data-testid="deletion-consequences">
      <li>Your sign-in, profile and email settings are deleted. This cannot be undone.</li>
      {preview.inStores > 0 ? (
        <li>
          {plural(preview.inStores, 'release that is', 'releases that are')} in stores will be taken down from
          every store. Stores remove a release once they process the takedown, usually within days.
        </li>
      ) : null}
      {preview.releases > 0 ? (
        <li>
          Omni keeps its record of your {plural(preview.releases, 'release', 'releases')} (taken down), but
          nobody can sign in to them again.
        </li>
      ) : (
        <li>You have no releases.</li>
      )}
      <li>The email address can be used to sign up again.</li>
    </ul>
  );
}

export function DeleteAccountCard({
  userId,
  onDeleted,
}: {
  userId: string;
  /** Before the session is forgotten: the page stops guarding itself, so it is not sent to /login. */
  onDeleted: () => void;
}) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const preview = useQuery({
    queryKey: ['account', userId, 'deletion'],
    queryFn: fetchDeletionPreview,
    enabled: open,
    staleTime: 0,
  });
  const blocked = (preview.data?.blockers.length ?? 0) > 0;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (typed.trim() !== 'DELETE') return setError('Type DELETE to confirm.');
    setBusy(true);
    setError(null);
    try {
      const message = await deleteAccount(password, typed);
      toast.success(message, { id: 'account-deleted', announces: '/' });
      // The page's session gate stands down, then we leave for / (a lazily loaded page: the navigation
      // commits later) and forget the session here (the server ended it with the account).
      onDeleted();
      navigate('/', { replace: true });
      await getSessionStore()
        .signOut()
        .catch(() => undefined);
    } catch (err) {
      setError(errorMessage(err, 'The account could not be deleted. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle>Delete account</CardTitle>
        <CardDescription>
          Closes the account for good. You will see what happens before you confirm.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Dialog
          open={open}
          onOpenChange={(next) => {
            setOpen(next);
            if (!next) {
              setTyped('');
              setPassword('');
              setError(null);
            }
          }}
        >
          <DialogTrigger asChild>
            <Button variant="destructive">Delete account…</Button>
          </DialogTrigger>
          <DialogContent>
            <form onSubmit={onSubmit} noValidate className="space-y-4">
              <DialogHeader>
                <DialogTitle>Delete your account?</DialogTitle>
                <DialogDescription>Here is what happens:</DialogDescription>
              </DialogHeader>
              {preview.isPending ? (
                <Spinner label="Checking your releases…" />
              ) : preview.isError ? (
                <p role="alert" className="text-sm text-destructive">
                  {errorMessage(preview.error, 'Could not check your releases. Please try again.')}
                </p>
              ) : (
                <>
                  <Consequences preview={preview.data} />
                  {blocked ? (
                    <div
                      role="alert"
                      className="space-y-1 rounded-md bg-destructive/10 p-3 text-sm text-destructive"
                    >
                      <p className="font-medium">Not yet:</p>
                      {preview.data.blockers.map((b) => (
                        <p key={b}>{b}</p>
                      ))}
                    </div>
                  ) : null}
                </>
              )}
              <FormField
                label="Current password"
                type="password"
                autoComplete="current-password"
                value={password}
                disabled={blocked}
                onChange={(e) => setPassword(e.target.value)}
              />
              <FormField
                label="Type DELETE to confirm"
                autoComplete="off"
                value={typed}
                disabled={blocked}
                onChange={(e) => setTyped(e.target.value)}
              />
              {error ? (
                <p role="alert" className="text-sm font-medium text-destructive" data-testid="delete-error">
                  {error}
                </p>
              ) : null}
              <DialogFooter>
                <Button
                  type="submit"
                  variant="destructive"
                  disabled={busy || blocked || !preview.isSuccess || typed.trim() !== 'DELETE' || !password}
                >
                  {busy ? 'Deleting…' : 'Delete my account'}
                </Button>
              </DialogFooter>
            </form>
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}
