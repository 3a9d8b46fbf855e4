// /splits/invitation?token=… — the page an invitation mail links to (issue 26): who invites, to which
// release, the share and what it holds so far; sign in or create an account (any address: the link is the
// proof), then accept. A lapsed, used or replaced link says so in words.
import {
  ApiError,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  FormField,
  Spinner,
  signInWithPassword,
  signUp,
  toast,
  useDocumentTitle,
  useSession,
} from '@omni/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DevMailboxHint } from '../components/dev-mailbox-hint';
import { PageFrame } from '../components/page-frame';
import { errorMessage } from '../lib/error-message';
import { formatUsd } from '../lib/money';
import { acceptInvitation, fetchInvitation, type InvitationView } from '../lib/splits-api';

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

function shareLines(view: InvitationView) {
  if (view.shares.length === 0)
    return <p className="text-sm">No share is set for you on this release right now.</p>;
  return (
    <ul className="space-y-1 text-sm" data-testid="invitation-shares">
      {view.shares.map((s) => (
        <li key={s.target ?? ''}>
          <strong className="font-mono">{s.percent}%</strong> of{' '}
          {s.target === null
            ? 'the whole release (every track without its own split)'
            : `“${s.title ?? 'a track'}”`}
        </li>
      ))}
    </ul>
  );
}

function SignInOrUp({ email }: { email: string }) {
  const [mode, setMode] = useState<'in' | 'up'>('in');
  const [address, setAddress] = useState(email);
  const [password, setPassword] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const go = useMutation({
    mutationFn: async () => {
      if (mode === 'in') {
        await signInWithPassword({ email: address.trim(), password });
        return null;
      }
      return signUp({ email: address.trim(), password });
    },
    onSuccess: (message) => {
      if (mode === 'up') setDone(message ?? 'Account created.');
    },
    onError: (error) =>
      toast.error(
        errorMessage(error, mode === 'in' ? 'Unable to sign in.' : 'Could not create the account.'),
      ),
  });
  if (done)
    return (
      <div className="space-y-2 text-sm" role="status" data-testid="signup-done">
        <p className="font-medium">{done}</p>
        <p>
          Confirm your address from the email we just sent to {address.trim()}, then open your invitation link
          again (it keeps working until it is accepted) and accept.
        </p>
        <DevMailboxHint />
      </div>
    );
  return (
    <form
      className="space-y-3"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!address.trim() || !password) {
          toast.error('Write your email and a password.');
          return;
        }
        go.mutate();
      }}
    >
      <div className="flex flex-wrap gap-2" role="tablist" aria-label="Sign in or create an account">
        <Button
          type="button"
          role="tab"
          aria-selected={mode === 'in'}
          variant={mode === 'in' ? 'default' : 'outline'}
          size="sm"
          onClick={() => setMode('in')}
        >
          I have an account
        </Button>
        <Button
          type="button"
          role="tab"
          aria-selected={mode === 'up'}
          variant={mode === 'up' ? 'default' : 'outline'}
          size="sm"
          onClick={() => setMode('up')}
        >
          Create an account
        </Button>
      </div>
      <FormField
        label="Email"
        type="email"
        autoComplete="email"
        value={address}
        onChange={(e) => setAddress(e.target.value)}
        hint="Any address: it does not need to be the one the invitation was sent to."
      />
      <FormField
        label="Password"
        type="password"
        autoComplete={mode === 'in' ? 'current-password' : 'new-password'}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        hint={mode === 'up' ? 'At least 8 characters.' : undefined}
      />
      <Button type="submit" className="w-full" disabled={go.isPending}>
        {mode === 'in' ? 'Sign in to accept' : 'Create my account'}
      </Button>
      {mode === 'in' ? (
        <p className="text-xs text-muted-foreground">
          <Link to="/forgot-password" className="text-primary hover:underline">
            Forgot your password?
          </Link>
        </p>
      ) : null}
    </form>
  );
}

function Invitation({ token }: { token: string }) {
  const { status, session } = useSession();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['split-invitation', token],
    queryFn: () => fetchInvitation(token),
    retry: false,
  });
  const accept = useMutation({
    mutationFn: () => acceptInvitation(token),
    onSuccess: (view) => {
      queryClient.setQueryData(['split-invitation', token], view);
      toast.success('Share accepted', { description: 'What it earns is paid to your account from now on.' });
    },
    onError: (error) => toast.error(errorMessage(error, 'Could not accept the invitation.')),
  });
  if (query.isPending) return <Spinner label="Opening the invitation…" />;
  if (query.error) {
    const gone = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Card role="alert" data-testid="invitation-gone">
        <CardHeader>
          <CardTitle>
            {gone ? 'This invitation link no longer works' : 'Could not open the invitation'}
          </CardTitle>
          <CardDescription className="text-foreground">
            {gone
              ? 'It was already used to accept the share, or the release’s owner sent a newer invitation (or took the share back). If you accepted it, your share is on your earnings page; otherwise ask the owner to send it again.'
              : errorMessage(query.error, 'Try again in a moment.')}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Link to="/app/earnings" className="text-sm font-medium text-primary hover:underline">
            Go to my earnings
          </Link>
        </CardContent>
      </Card>
    );
  }
  const view = accept.data ?? query.data;
  const lapsed = view.status === 'lapsed' || new Date(view.expiresAt) < new Date();
  const inviter = view.invitedBy || 'The release’s owner';
  return (
    <Card data-testid="invitation-card">
      <CardHeader>
        <CardTitle>
          {view.status === 'accepted' ? 'Your share of ' : `${inviter} invites you to a share of `}“
          {view.releaseTitle}”
        </CardTitle>
        <CardDescription>
          Sent to {view.email}
          {view.status === 'pending' && !lapsed ? ` · the link works until ${day(view.expiresAt)}` : ''}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {shareLines(view)}
        <p className="text-sm" data-testid="invitation-held">
          {view.status === 'accepted'
            ? 'Held for you until you accepted: '
            : 'Earned so far and held for you: '}
          <strong className="font-mono">{formatUsd(view.held)}</strong>
        </p>
        {view.status === 'accepted' ? (
          <div className="space-y-2 text-sm" role="status" data-testid="invitation-accepted">
            <p>You accepted this share: what it earns is paid to your account.</p>
            <Link to="/app/earnings" className="font-medium text-primary hover:underline">
              See my earnings
            </Link>
          </div>
        ) : lapsed ? (
          <p className="text-sm font-medium text-destructive" role="alert" data-testid="invitation-lapsed">
            This invitation lapsed on {day(view.expiresAt)} without an answer. Your share is still held: ask{' '}
            {view.invitedBy || 'the release’s owner'} to send it again.
          </p>
        ) : view.status !== 'pending' ? (
          <p className="text-sm font-medium" role="alert">
            This share was taken back by the release’s owner; there is nothing to accept.
          </p>
        ) : status === 'loading' ? (
          <Spinner label="Checking your session…" />
        ) : status === 'signed-in' && session ? (
          <div className="space-y-2">
            <p className="text-sm text-muted-foreground">
              Signed in as {session.user.email}
              {session.user.email.toLowerCase() !== view.email
                ? ' — you can accept with this account all the same'
                : ''}
              .
            </p>
            <Button onClick={() => accept.mutate()} disabled={accept.isPending}>
              {accept.isPending ? 'Accepting…' : 'Accept my share'}
            </Button>
          </div>
        ) : (
          <div className="space-y-2">
            <p className="text-sm">Sign in or create an Omni account to accept. It is free.</p>
            <SignInOrUp email={view.email} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

export default function SplitInvitationPage() {
  useDocumentTitle('Your invitation');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  return (
    <PageFrame>
      <div className="mx-auto max-w-xl space-y-4">
        <h1 className="text-2xl font-bold tracking-tight">Royalty split invitation</h1>
        {token ? (
          <Invitation token={token} />
        ) : (
          <p role="alert" className="text-sm">
            This page opens from the link in an invitation email; this address has no invitation in it.
          </p>
        )}
      </div>
    </PageFrame>
  );
}
