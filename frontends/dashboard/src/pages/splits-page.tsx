// /app/splits — the splits overview (issue 26; GET /api/me/splits, one call): for the owner, each release
// with its split state (all theirs, the shares set, pending invitations with their expiry, lapsed ones with
// the owner's choices acted on here), each linking to the release's Splits tab; for a collaborator, the
// shares others offered them (pending: accepted from the mail's link, which only the mail carries) and a
// link to /app/earnings. Shares are edited on the release's Splits tab, not here.
import {
  Badge,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Spinner,
  useDocumentTitle,
} from '@omni/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { PageFrame } from '../components/page-frame';
import { RequireSession } from '../components/session-gates';
import { InvitationChoices } from '../components/splits/invitation-choices';
import { errorMessage } from '../lib/error-message';
import { formatUsd } from '../lib/money';
import { fetchMySplits, type MySplits } from '../lib/splits-api';

type Owned = MySplits['owned'][number];
type Invited = MySplits['invited'][number];

const day = (iso: string) => iso.slice(0, 10);
const splitsTab = (releaseId: string) => `/release/${encodeURIComponent(releaseId)}?tab=splits`;

const INVITED_STATE: Record<Invited['status'], string> = {
  pending: 'Waiting for you to accept: use the link in the invitation email',
  lapsed: 'Lapsed: ask the owner to send it again',
  accepted: 'Accepted: paid to your account',
  reassigned: 'Taken back by the owner',
};

function OwnedRelease({ r }: { r: Owned }) {
  const client = useQueryClient();
  return (
    <li className="space-y-3 rounded-md border p-4" data-testid="owned-release">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold">{r.title}</h3>
        <Link to={splitsTab(r.releaseId)} className="text-sm text-primary hover:underline">
          Splits tab
        </Link>
      </div>
      {r.shares.length === 0 ? (
        <p className="text-sm text-muted-foreground">No splits: 100 % of this release is yours.</p>
      ) : (
        <ul className="space-y-1 text-sm" aria-label={`Shares of ${r.title}`}>
          {r.shares.map((s) => (
            <li key={`${s.email}:${s.status}`} className="flex justify-between gap-2">
              <span className="min-w-0 break-all">{s.status === 'owner' ? `${s.email} (you)` : s.email}</span>
              <span className="shrink-0 font-mono">{s.percent} %</span>
            </li>
          ))}
        </ul>
      )}
      {r.pending.map((p) => (
        <p key={p.invitationId} className="text-sm" data-testid="pending-invitation">
          <Badge variant="secondary">Pending</Badge> <span className="break-all">{p.email}</span> — the link
          works until {day(p.expiresAt)}.
        </p>
      ))}
      {r.lapsed.map((l) => (
        <div
          key={l.invitationId}
          className="space-y-2 rounded-md bg-muted p-3 text-sm"
          data-testid="lapsed-invitation"
        >
          <p>
            <Badge variant="destructive">Lapsed</Badge> The invitation to{' '}
            <span className="break-all">{l.email}</span> lapsed on {day(l.expiresAt)} without an answer. Their
            share is still held ({formatUsd(l.held)} so far): send it again, give it to someone else, or take
            it back yourself.
          </p>
          <InvitationChoices
            releaseId={r.releaseId}
            invitationId={l.invitationId}
            email={l.email}
            onDone={() => client.invalidateQueries({ queryKey: ['me', 'splits'] })}
          />
        </div>
      ))}
    </li>
  );
}

function Overview({ data }: { data: MySplits }) {
  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>Your releases</CardTitle>
          <CardDescription>
            Who shares each release this month. Set or change shares on a release’s Splits tab.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {data.owned.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              You have no releases yet.{' '}
              <Link to="/artist-upload" className="text-primary hover:underline">
                Upload one
              </Link>{' '}
              to split it with collaborators.
            </p>
          ) : (
            <ul className="space-y-3">
              {data.owned.map((r) => (
                <OwnedRelease key={r.releaseId} r={r} />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Shares you were offered</CardTitle>
          <CardDescription>
            Releases others share with you. What they earned is on{' '}
            <Link to="/app/earnings" className="text-primary hover:underline">
              your earnings
            </Link>
            .
          </CardDescription>
        </CardHeader>
        <CardContent>
          {data.invited.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nobody has invited you to a split yet.</p>
          ) : (
            <ul className="space-y-2">
              {data.invited.map((i) => (
                <li
                  key={i.invitationId}
                  className="flex flex-wrap items-baseline justify-between gap-2 rounded-md border p-3 text-sm"
                  data-testid="invited-share"
                >
                  <span>
                    <span className="font-semibold">{i.releaseTitle}</span>
                    {i.percent ? <span className="font-mono"> · {i.percent} %</span> : null}
                  </span>
                  <span className="text-muted-foreground">{INVITED_STATE[i.status]}</span>
                  {i.status === 'accepted' ? (
                    <Link to={splitsTab(i.releaseId)} className="text-primary hover:underline">
                      Your share and its recoup ledger
                    </Link>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </>
  );
}

function SplitsLoader() {
  useDocumentTitle('Splits');
  const query = useQuery({ queryKey: ['me', 'splits'], queryFn: fetchMySplits });
  return (
    <>
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Splits</h1>
        <p className="mt-2 text-muted-foreground">
          Who shares your releases’ royalties, and the shares others offered you.
        </p>
      </div>
      {query.isPending ? (
        <Spinner label="Loading splits…" />
      ) : query.error ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(query.error, 'Could not load your splits.')}
        </p>
      ) : (
        <Overview data={query.data} />
      )}
    </>
  );
}

export default function SplitsPage() {
  return (
    <RequireSession>
      <PageFrame>
        <SplitsLoader />
      </PageFrame>
    </RequireSession>
  );
}
