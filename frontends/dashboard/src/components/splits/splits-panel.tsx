// The Splits tab of a release (issue 26): who gets what share of its royalties, per track (the release's
// default and each track's own), the owner's remainder worked out as the shares are typed, invitations
// (pending, accepted, lapsed) with the owner's choices, the history of changes, and expenses and advances
// recouped from gross before the split, with the recoup ledger. A collaborator sees only their own share.
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Input,
  Label,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  toast,
} from '@omni/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '../../lib/error-message';
import { formatUsd } from '../../lib/money';
import {
  addExpense,
  fetchSplits,
  percentUnits,
  type ReleaseSplits,
  saveSplits,
  unitsText,
} from '../../lib/splits-api';
import { selectClass } from '../page-frame';
import { InvitationChoices } from './invitation-choices';

type Share = ReleaseSplits['tables'][number]['shares'][number];

const WHOLE = 1_000_000;
const STATUS_TEXT: Record<Share['status'], string> = {
  owner: 'Owner',
  pending: 'Invited, not accepted yet',
  accepted: 'Accepted',
  lapsed: 'Invitation lapsed',
  reassigned: 'Taken back by the owner',
};
const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

function StatusBadge({ status }: { status: Share['status'] }) {
  return (
    <Badge
      variant={
        status === 'lapsed'
          ? 'destructive'
          : status === 'accepted' || status === 'owner'
            ? 'default'
            : 'secondary'
      }
      data-testid="split-status"
    >
      {STATUS_TEXT[status]}
    </Badge>
  );
}

const sharesText = (shares: Share[]) =>
  shares.map((s) => `${s.email || 'Owner'} ${s.percent}%`).join(', ') || 'The owner 100%';

function ShareTable({ shares }: { shares: Share[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Who</TableHead>
          <TableHead className="text-right">Share</TableHead>
          <TableHead>State</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {shares.map((s) => (
          <TableRow key={`${s.role}:${s.email}:${s.invitationId ?? ''}`} data-testid="split-share">
            <TableCell className="min-w-[11rem] [overflow-wrap:anywhere]">
              {s.role === 'owner' ? `${s.email || 'You'} (owner)` : s.email}
            </TableCell>
            <TableCell className="text-right font-mono">{s.percent}%</TableCell>
            <TableCell>
              <StatusBadge status={s.status} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

interface Row {
  email: string;
  percent: string;
}

/** What is wrong with the rows, in words; null when they can be sent. */
function problemOf(rows: Row[]): { sum: number; problem: string | null } {
  let sum = 0;
  const seen = new Set<string>();
  for (const [i, r] of rows.entries()) {
    const n = i + 1;
    if (!r.email.trim()) return { sum, problem: `Write the email address of collaborator ${n}.` };
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(r.email.trim()))
      return { sum, problem: `${r.email.trim()} is not an email address, like name@example.com.` };
    const key = r.email.trim().toLowerCase();
    if (seen.has(key)) return { sum, problem: `${r.email.trim()} is listed twice; give them one share.` };
    seen.add(key);
    const units = percentUnits(r.percent);
    if (units === null || units === 0)
      return {
        sum,
        problem: `The share of ${r.email.trim()} must be a percent above 0 with at most 4 decimals, like 12.5 or 33.3333.`,
      };
    sum += units;
  }
  if (sum > WHOLE)
    return {
      sum,
      problem: `Shares must add up to 100% at most; these add up to ${unitsText(sum)}%, ${unitsText(sum - WHOLE)}% too much.`,
    };
  return { sum, problem: null };
}

function SplitsEditor({
  data,
  onSaved,
}: {
  data: ReleaseSplits;
  onSaved: (next: ReleaseSplits, links: Array<{ email: string; url: string }>) => void;
}) {
  const id = useId();
  const [target, setTarget] = useState('');
  const tableOf = (t: string) => data.tables.find((x) => (x.target ?? '') === t);
  const rowsFrom = (t: string): Row[] =>
    (tableOf(t)?.shares ?? [])
      .filter((s) => s.role === 'collaborator' && s.status !== 'reassigned')
      .map((s) => ({ email: s.email, percent: s.percent }));
  const [rows, setRows] = useState<Row[]>(() => {
    const r = rowsFrom('');
    return r.length ? r : [{ email: '', percent: '' }];
  });
  const [from, setFrom] = useState(data.month);
  const [tried, setTried] = useState(false);
  const { sum, problem } = problemOf(rows);
  const save = useMutation({
    mutationFn: () =>
      saveSplits(data.releaseId, {
        ...(target ? { tracks: [target] } : {}),
        shares: rows.map((r) => ({ email: r.email.trim(), percent: r.percent.trim() })),
        effectiveFrom: from,
      }),
    onSuccess: (answer) => {
      const { links, ...next } = answer;
      onSaved(next, links);
      toast.success('Splits saved', {
        description: links.length
          ? `We emailed an invitation to ${links.map((l) => l.email).join(', ')}.`
          : `In force from ${from}.`,
      });
    },
    onError: (error) => toast.error(errorMessage(error, 'Could not save the splits.')),
  });
  const set = (i: number, patch: Partial<Row>) =>
    setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const remainder = WHOLE - Math.min(sum, WHOLE);
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (!problem) save.mutate();
      }}
      data-testid="splits-editor"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor={`${id}-target`}>Applies to</Label>
          <select
            id={`${id}-target`}
            className={selectClass}
            value={target}
            onChange={(e) => {
              setTarget(e.target.value);
              const r = rowsFrom(e.target.value);
              setRows(r.length ? r : [{ email: '', percent: '' }]);
            }}
          >
            <option value="">The whole release (every track)</option>
            {data.tables
              .filter((t) => t.target)
              .map((t) => (
                <option key={t.target} value={t.target ?? ''}>
                  Only “{t.title}”
                </option>
              ))}
          </select>
        </div>
        <div className="space-y-2">
          <Label htmlFor={`${id}-from`}>From sales of (month)</Label>
          <Input
            id={`${id}-from`}
            type="month"
            min={data.month}
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            aria-describedby={`${id}-from-hint`}
          />
          <p id={`${id}-from-hint`} className="text-xs text-muted-foreground">
            Sales before this month keep the shares they had; a change is never applied backwards.
          </p>
        </div>
      </div>
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium">Collaborators</legend>
        {rows.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own while typed
          <div key={i} className="grid grid-cols-[1fr_7rem_auto] items-end gap-2" data-testid="split-row">
            <div className="space-y-1">
              <Label htmlFor={`${id}-email-${i}`} className={i ? 'sr-only' : ''}>
                Email
              </Label>
              <Input
                id={`${id}-email-${i}`}
                type="email"
                autoComplete="off"
                placeholder="name@example.com"
                value={r.email}
                onChange={(e) => set(i, { email: e.target.value })}
              />
            </div>
            <div className="space-y-1">
              <Label htmlFor={`${id}-pct-${i}`} className={i ? 'sr-only' : ''}>
                Share %
              </Label>
              <Input
                id={`${id}-pct-${i}`}
                inputMode="decimal"
                placeholder="40"
                className="text-right font-mono"
                value={r.percent}
                onChange={(e) => set(i, { percent: e.target.value })}
              />
            </div>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={`Remove ${r.email || `collaborator ${i + 1}`}`}
              onClick={() => setRows((rs) => rs.filter((_, j) => j !== i))}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </div>
        ))}
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => setRows((rs) => [...rs, { email: '', percent: '' }])}
        >
          <Plus aria-hidden="true" /> Add a collaborator
        </Button>
      </fieldset>
      <p className="text-sm" data-testid="owner-remainder" aria-live="polite">
        Your share (the rest): <strong className="font-mono">{unitsText(remainder)}%</strong>
        {rows.length ? ` · collaborators ${unitsText(Math.min(sum, 10 * WHOLE))}%` : ''}
      </p>
      {problem && (tried || sum > WHOLE) ? (
        <p className="text-sm font-medium text-destructive" role="alert" data-testid="splits-error">
          {problem}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save splits'}
        </Button>
        <p className="text-xs text-muted-foreground">
          Each new collaborator gets an email with a link to accept their share. Until they do, what it earns
          is held for them.
        </p>
      </div>
    </form>
  );
}

function ExpenseForm({ data, onSaved }: { data: ReleaseSplits; onSaved: (next: ReleaseSplits) => void }) {
  const id = useId();
  const payees = [
    ...new Set(
      data.tables
        .flatMap((t) => t.shares.filter((s) => s.status !== 'reassigned').map((s) => s.email))
        .filter(Boolean),
    ),
  ];
  const [kind, setKind] = useState<'expense' | 'advance'>('expense');
  const [email, setEmail] = useState(payees[0] ?? '');
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      addExpense(data.releaseId, { kind, email: email.trim(), amount: amount.trim(), note: note.trim() }),
    onSuccess: (next) => {
      onSaved(next);
      setAmount('');
      setNote('');
      toast.success(
        `${kind === 'advance' ? 'Advance' : 'Expense'} recorded: repaid to ${email} before the split.`,
      );
    },
    onError: (error) => setProblem(errorMessage(error, 'Could not record it.')),
  });
  return (
    <form
      className="grid gap-3 sm:grid-cols-[8rem_1fr_8rem] lg:grid-cols-[8rem_1fr_8rem_1fr_auto] lg:items-end"
      noValidate
      data-testid="expense-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!/^\d+(\.\d{1,2})?$/.test(amount.trim()) || Number(amount) <= 0)
          return setProblem('Write the amount in US dollars, above zero, like 250 or 250.00.');
        if (!email.trim())
          return setProblem('Say who is repaid: yourself or a collaborator of this release.');
        setProblem(null);
        save.mutate();
      }}
    >
      <div className="space-y-1">
        <Label htmlFor={`${id}-kind`}>Kind</Label>
        <select
          id={`${id}-kind`}
          className={selectClass}
          value={kind}
          onChange={(e) => setKind(e.target.value as 'expense' | 'advance')}
        >
          <option value="expense">Expense</option>
          <option value="advance">Advance</option>
        </select>
      </div>
      <div className="space-y-1">
        <Label htmlFor={`${id}-who`}>Repaid to</Label>
        <Input
          id={`${id}-who`}
          type="email"
          list={`${id}-payees`}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <datalist id={`${id}-payees`}>
          {payees.map((p) => (
            <option key={p} value={p} />
          ))}
        </datalist>
      </div>
      <div className="space-y-1">
        <Label htmlFor={`${id}-amount`}>Amount (USD)</Label>
        <Input
          id={`${id}-amount`}
          inputMode="decimal"
          placeholder="250.00"
          className="text-right font-mono"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
      </div>
      <div className="space-y-1 sm:col-span-2 lg:col-span-1">
        <Label htmlFor={`${id}-note`}>Note</Label>
        <Input id={`${id}-note`} maxLength={200} value={note} onChange={(e) => setNote(e.target.value)} />
      </div>
      <Button type="submit" disabled={save.isPending}>
        Add
      </Button>
      {problem ? (
        <p className="text-sm font-medium text-destructive sm:col-span-3 lg:col-span-5" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  );
}

function RecoupCard({ data, onSaved }: { data: ReleaseSplits; onSaved: (next: ReleaseSplits) => void }) {
  const { expenses, entries } = data.recoup;
  const manages = data.role !== 'collaborator';
  return (
    <Card data-testid="recoup-card">
      <CardHeader>
        <CardTitle>Expenses and advances</CardTitle>
        <CardDescription>
          Repaid from this release’s income before it is split, expenses before advances, oldest first.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {manages ? <ExpenseForm data={data} onSaved={onSaved} /> : null}
        {expenses.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing to recoup on this release.</p>
        ) : (
          <div className="overflow-x-auto">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Entered</TableHead>
                  <TableHead>Kind</TableHead>
                  <TableHead>Repaid to</TableHead>
                  <TableHead className="text-right">Amount</TableHead>
                  <TableHead className="text-right">Recouped</TableHead>
                  <TableHead className="text-right">Outstanding</TableHead>
                  <TableHead>Note</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {expenses.map((e) => (
                  <TableRow key={e.id} data-testid="expense-row">
                    <TableCell className="whitespace-nowrap">{day(e.createdAt)}</TableCell>
                    <TableCell>{e.kind === 'advance' ? 'Advance' : 'Expense'}</TableCell>
                    <TableCell className="min-w-[11rem] [overflow-wrap:anywhere]">{e.email}</TableCell>
                    <TableCell className="text-right font-mono">{formatUsd(e.amount)}</TableCell>
                    <TableCell className="text-right font-mono">{formatUsd(e.recouped)}</TableCell>
                    <TableCell className="text-right font-mono">{formatUsd(e.outstanding)}</TableCell>
                    <TableCell>{e.note}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
        {entries.length ? (
          <details>
            <summary className="cursor-pointer text-sm font-medium">
              Recoup ledger ({entries.length} repayments)
            </summary>
            <ul className="mt-2 space-y-1 text-sm">
              {entries.map((r) => (
                <li key={`${r.expenseId}:${r.at}:${r.amount}`}>
                  {day(r.at)} · {formatUsd(r.amount)} repaid to {r.email}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </CardContent>
    </Card>
  );
}

export function SplitsView({
  data,
  onChange,
}: {
  data: ReleaseSplits;
  onChange: (next: ReleaseSplits) => void;
}) {
  const manages = data.role !== 'collaborator';
  const [lastLinks, setLastLinks] = useState<Array<{ email: string; url: string }>>([]);
  const titleOf = (target: string | null) =>
    data.tables.find((t) => t.target === target)?.title ?? (target ? 'A track' : 'Whole release');
  return (
    <div className="space-y-6" data-testid="splits-panel">
      {data.notices.map((n) => {
        const inv = data.invitations.find((i) => i.id === n.invitationId);
        return (
          <Card key={n.invitationId} className="border-amber-500/60" role="status" data-testid="split-notice">
            <CardHeader>
              <CardTitle>An invitation lapsed: your choice</CardTitle>
              <CardDescription className="text-foreground">{n.message}</CardDescription>
            </CardHeader>
            {inv ? (
              <CardContent>
                {inv.status === 'pending' || inv.status === 'lapsed' ? (
                  <InvitationChoices
                    releaseId={data.releaseId}
                    invitationId={inv.id}
                    email={inv.email}
                    onDone={onChange}
                  />
                ) : null}
              </CardContent>
            ) : null}
          </Card>
        );
      })}

      <Card>
        <CardHeader>
          <CardTitle>{manages ? 'Shares' : 'Your share'}</CardTitle>
          <CardDescription>
            In force for sales of {data.month}. A track without shares of its own follows the whole release’s.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          {data.tables
            .filter((t) => t.shares.length > 0 || manages)
            .map((t) => (
              <section
                key={t.target ?? ''}
                aria-label={t.title}
                data-testid="split-table"
                className="space-y-2"
              >
                <h3 className="text-sm font-semibold">{t.title}</h3>
                <ShareTable shares={t.shares} />
                {t.upcoming.map((u) => (
                  <p key={u.effectiveFrom} className="text-xs text-muted-foreground">
                    From {u.effectiveFrom}: {sharesText(u.shares)}
                  </p>
                ))}
              </section>
            ))}
        </CardContent>
      </Card>

      {manages ? (
        <Card>
          <CardHeader>
            <CardTitle>Change the splits</CardTitle>
            <CardDescription>
              Shares are percents with up to 4 decimals. What the collaborators do not get is yours.
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-3">
            <SplitsEditor
              data={data}
              onSaved={(next, links) => {
                onChange(next);
                setLastLinks(links);
              }}
            />
            {lastLinks.length ? (
              <div className="rounded-md border bg-muted/40 p-3 text-sm" data-testid="invitation-links">
                <p className="font-medium">Invitation links (also emailed; shown once):</p>
                <ul className="mt-1 space-y-1">
                  {lastLinks.map((l) => (
                    <li key={l.url} className="break-all">
                      {l.email}: <span className="font-mono text-xs">{l.url}</span>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </CardContent>
        </Card>
      ) : null}

      {data.invitations.length ? (
        <Card>
          <CardHeader>
            <CardTitle>Invitations</CardTitle>
            <CardDescription>
              What a share earns before it is accepted is held for it, never given back by itself.
            </CardDescription>
          </CardHeader>
          <CardContent className="overflow-x-auto">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Email</TableHead>
                  <TableHead>State</TableHead>
                  <TableHead>Link works until</TableHead>
                  <TableHead className="text-right">Held</TableHead>
                  <TableHead className="text-right">Paid to account</TableHead>
                  {manages ? <TableHead>Choices</TableHead> : null}
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.invitations.map((inv) => (
                  <TableRow key={inv.id} data-testid="invitation-row">
                    <TableCell className="min-w-[11rem] [overflow-wrap:anywhere]">{inv.email}</TableCell>
                    <TableCell>
                      <StatusBadge status={inv.status} />
                    </TableCell>
                    <TableCell className="whitespace-nowrap">
                      {inv.status === 'pending' || inv.status === 'lapsed' ? day(inv.expiresAt) : '—'}
                    </TableCell>
                    <TableCell className="text-right font-mono">{formatUsd(inv.held)}</TableCell>
                    <TableCell className="text-right font-mono">{formatUsd(inv.paidToAccount)}</TableCell>
                    {manages ? (
                      <TableCell>
                        {inv.status === 'pending' || inv.status === 'lapsed' ? (
                          <InvitationChoices
                            releaseId={data.releaseId}
                            invitationId={inv.id}
                            email={inv.email}
                            onDone={onChange}
                          />
                        ) : null}
                      </TableCell>
                    ) : null}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </CardContent>
        </Card>
      ) : null}

      <RecoupCard data={data} onSaved={onChange} />

      {data.history.length ? (
        <Card>
          <CardHeader>
            <CardTitle>History of changes</CardTitle>
          </CardHeader>
          <CardContent>
            <ol className="space-y-2 text-sm" data-testid="split-history">
              {[...data.history].reverse().map((h) => (
                <li key={`${h.setAt}:${h.target ?? ''}`}>
                  <span className="text-muted-foreground">
                    {day(h.setAt)} · by the {h.setBy} · {titleOf(h.target)} · from {h.effectiveFrom}:
                  </span>{' '}
                  {sharesText(h.shares)}
                </li>
              ))}
            </ol>
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}

/** The tab's content: reads the release's splits and keeps the answer of every change. */
export function SplitsPanel({ releaseId }: { releaseId: string }) {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ['splits', releaseId], queryFn: () => fetchSplits(releaseId) });
  if (query.isPending) return <Spinner label="Loading splits…" />;
  if (query.error)
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(query.error, 'Could not load the splits.')}
      </p>
    );
  return (
    <SplitsView
      data={query.data}
      onChange={(next) => queryClient.setQueryData(['splits', releaseId], next)}
    />
  );
}
