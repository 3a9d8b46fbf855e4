// /app/earnings — what a payee has earned from splits (issue 26; GET /api/me/earnings): the balance (their
// shares and what expenses repaid them), the shares held for them until they accept, and per sale month.
// Kept small and in its own file: payouts (statements, why not paid) are another page's.
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  useDocumentTitle,
} from '@omni/ui';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { PageFrame } from '../components/page-frame';
import { RequireSession } from '../components/session-gates';
import { errorMessage } from '../lib/error-message';
import { formatUsd } from '../lib/money';
import { fetchEarnings, type MyEarnings } from '../lib/splits-api';

const STATUS: Record<MyEarnings['held'][number]['status'], string> = {
  pending: 'Waiting for you to accept',
  lapsed: 'Lapsed: ask the owner to send it again',
  accepted: 'Accepted',
  reassigned: 'Taken back by the owner',
};

function Earnings({ data }: { data: MyEarnings }) {
  return (
    <>
      <section className="grid gap-4 sm:grid-cols-2" aria-label="Totals">
        <Card data-testid="earnings-balance">
          <CardHeader className="pb-2">
            <CardTitle className="text-sm font-medium">Your balance</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-2xl font-bold">{formatUsd(data.balance)}</p>
            <p className="mt-1 text-xs text-muted-foreground">
              Your shares of every release, and repaid expenses.
            </p>
          </CardContent>
        </Card>
        <Card data-testid="earnings-held">
          <CardHeader className="pb-2">
            <CardTitle className="text-sm font-medium">Held for you</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-2xl font-bold">{formatUsd(data.heldTotal)}</p>
            <p className="mt-1 text-xs text-muted-foreground">
              Shares you were invited to and have not accepted yet.
            </p>
          </CardContent>
        </Card>
      </section>

      {data.held.length ? (
        <Card>
          <CardHeader>
            <CardTitle>Shares waiting for you</CardTitle>
            <CardDescription>Accept each from the link in its invitation email.</CardDescription>
          </CardHeader>
          <CardContent className="overflow-x-auto">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Release</TableHead>
                  <TableHead>State</TableHead>
                  <TableHead className="text-right">Held</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.held.map((h) => (
                  <TableRow key={h.invitationId} data-testid="held-row">
                    <TableCell>{h.releaseTitle}</TableCell>
                    <TableCell>{STATUS[h.status]}</TableCell>
                    <TableCell className="text-right font-mono">{formatUsd(h.amount)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </CardContent>
        </Card>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle>By sale month</CardTitle>
          <CardDescription>
            Split shares and recoupments (expenses repaid to you before a split).
          </CardDescription>
        </CardHeader>
        <CardContent className="overflow-x-auto">
          {data.statements.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              Nothing yet: earnings appear once stores report sales.
            </p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Month</TableHead>
                  <TableHead className="text-right">Shares</TableHead>
                  <TableHead className="text-right">Recoupments</TableHead>
                  <TableHead className="text-right">Total</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.statements.map((s) => (
                  <TableRow key={s.saleMonth} data-testid="earnings-month">
                    <TableCell>{s.saleMonth}</TableCell>
                    <TableCell className="text-right font-mono">{formatUsd(s.shares)}</TableCell>
                    <TableCell className="text-right font-mono">{formatUsd(s.recoupments)}</TableCell>
                    <TableCell className="text-right font-mono">{formatUsd(s.total)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>

      {data.releases.length ? (
        <Card>
          <CardHeader>
            <CardTitle>By release</CardTitle>
            <CardDescription>
              Each release’s Splits tab shows your share and its recoup ledger.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="space-y-1 text-sm">
              {data.releases.map((r) => (
                <li key={r.releaseId} className="flex justify-between gap-4">
                  <Link
                    to={`/release/${encodeURIComponent(r.releaseId)}?tab=splits`}
                    className="text-primary hover:underline"
                  >
                    Release {r.releaseId.slice(0, 8)} · splits and recoup ledger
                  </Link>
                  <span className="font-mono">{formatUsd(r.amount)}</span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}
    </>
  );
}

function EarningsLoader() {
  useDocumentTitle('Earnings');
  const query = useQuery({ queryKey: ['me', 'earnings'], queryFn: fetchEarnings });
  return (
    <>
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Earnings</h1>
        <p className="mt-2 text-muted-foreground">What your shares of releases have earned, in US dollars.</p>
      </div>
      {query.isPending ? (
        <Spinner label="Loading earnings…" />
      ) : query.error ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(query.error, 'Could not load your earnings.')}
        </p>
      ) : (
        <Earnings data={query.data} />
      )}
    </>
  );
}

export default function EarningsPage() {
  return (
    <RequireSession>
      <PageFrame>
        <EarningsLoader />
      </PageFrame>
    </RequireSession>
  );
}
