import { Spinner, toast, useDocumentTitle, useSession } from '@omni/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DeleteAccountCard } from '../components/account/delete-account-dialog';
import { EmailCard } from '../components/account/email-card';
import { MailSettingsCard } from '../components/account/mail-settings-card';
import { PasswordCard } from '../components/account/password-card';
import { ProfileCard } from '../components/account/profile-card';
import { PageFrame } from '../components/page-frame';
import { RequireSession } from '../components/session-gates';
import { accountQueryKey, confirmEmailChange, fetchAccount } from '../lib/account-api';
import { errorMessage } from '../lib/error-message';

/**
 * /account?email-change=<token>: the link mailed to a new address. It works in any browser (the link
 * proves the address and signs in), so it is confirmed before the session gate, once per token.
 */
function useEmailChangeLink() {
  const [params, setParams] = useSearchParams();
  const token = params.get('email-change');
  const queryClient = useQueryClient();
  const done = useRef<string | null>(null);
  useEffect(() => {
    if (!token || done.current === token) return;
    done.current = token;
    confirmEmailChange(token)
      .then((message) => {
        toast.success(message, { id: 'email-change' });
        void queryClient.invalidateQueries({ queryKey: ['account'] });
      })
      .catch((err: unknown) =>
        toast.error(errorMessage(err, 'This link has expired or was already used.'), { id: 'email-change' }),
      )
      .finally(() =>
        setParams(
          (p) => {
            p.delete('email-change');
            return p;
          },
          { replace: true },
        ),
      );
  }, [token, queryClient, setParams]);
  return !!token;
}

function AccountSettings({ onDeleted }: { onDeleted: () => void }) {
  const { session } = useSession();
  const userId = session?.user.id;
  const account = useQuery({ queryKey: accountQueryKey(userId), queryFn: fetchAccount, enabled: !!userId });
  if (!session || !userId) return null;
  return (
    <PageFrame>
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Account</h1>
        <p className="mt-2 text-muted-foreground">
          Your name, sign-in, email settings, and closing the account.
        </p>
      </div>
      {account.isPending ? (
        <Spinner label="Loading your account…" />
      ) : account.isError ? (
        <p role="alert" className="text-destructive">
          {errorMessage(account.error, 'Could not load your account. Please try again.')}
        </p>
      ) : (
        <div className="max-w-3xl space-y-6">
          <ProfileCard
            key={account.data.displayName}
            userId={userId}
            initialName={session.profile.displayName ?? account.data.displayName}
          />
          <EmailCard email={session.user.email} />
          <PasswordCard />
          <MailSettingsCard userId={userId} mail={account.data.mail} />
          <DeleteAccountCard userId={userId} onDeleted={onDeleted} />
        </div>
      )}
    </PageFrame>
  );
}

export default function AccountPage() {
  useDocumentTitle('Account');
  const confirming = useEmailChangeLink();
  const { status } = useSession();
  const [deleted, setDeleted] = useState(false);
  // The account is gone and we are on our way to /: nothing to guard, no detour through /login.
  if (deleted)
    return (
      <div className="flex min-h-[60vh] items-center justify-center">
        <Spinner label="Closing your account…" />
      </div>
    );
  // Following an email-change link signs in: wait for it rather than bouncing to /login.
  if (confirming && status !== 'signed-in')
    return (
      <div className="flex min-h-[60vh] items-center justify-center">
        <Spinner label="Confirming your new email…" />
      </div>
    );
  return (
    <RequireSession>
      <AccountSettings onDeleted={() => setDeleted(true)} />
    </RequireSession>
  );
}
