import { zodResolver } from '@hookform/resolvers/zod';
import { taxFormBody } from '@omni/proto/api';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Checkbox,
  FormField,
  formatPublished,
  Label,
  Spinner,
  serverMessage,
  toast,
  useDocumentTitle,
  useSession,
} from '@omni/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, CheckCircle2, CircleAlert, Download, ExternalLink } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { PageFrame, selectClass } from '../components/page-frame';
import { RequireSession } from '../components/session-gates';
import { errorMessage } from '../lib/error-message';
import { formatUsd } from '../lib/money';
import {
  downloadStatement,
  fetchPayouts,
  fetchStatement,
  type MyPayouts,
  type PayeeStatement,
  parseMinimum,
  payoutsQueryKey,
  saveMinimum,
  saveTaxForm,
  startOnboarding,
  type TaxFormBody,
} from '../lib/payouts-api';

type Payout = MyPayouts['payouts'][number];

const STATE_WORDS: Record<Payout['state'], string> = {
  pending: 'Pending',
  in_transit: 'In transit',
  paid: 'Paid',
  failed: 'Failed',
};
const STATE_VARIANT = {
  pending: 'secondary',
  in_transit: 'secondary',
  paid: 'default',
  failed: 'destructive',
} as const;

const ACCOUNT_WORDS: Record<MyPayouts['account']['status'], string> = {
  none: 'Not set up yet.',
  incomplete: 'Started: some details are still needed.',
  pending_verification: 'Details given; being checked.',
  verified: 'Ready to receive payouts.',
  restricted: 'Paused: the payout provider needs more details.',
};

const monthName = (period: string) =>
  new Date(`${period}-01T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** How long the page keeps asking after the hosted form: the account's new status comes with the rail's
 * account.updated event, which may land a moment after the person is back (Stripe's as the sandbox's). */
const WATCH_AFTER_ONBOARDING_MS = 60_000;

function usePayouts(watchUntil: number) {
  const { session } = useSession();
  return useQuery({
    queryKey: payoutsQueryKey(session?.user.id),
    queryFn: fetchPayouts,
    enabled: !!session,
    refetchInterval: (query) =>
      Date.now() < watchUntil && query.state.data?.account.status !== 'verified' ? 2000 : false,
  });
}

/**
 * Back from the hosted onboarding form: says so once, then drops the flag from the address. The time until
 * which the page watches for the account's new status.
 */
function useOnboardingReturn(): number {
  const [params, setParams] = useSearchParams();
  const flag = params.get('onboarding');
  const [watchUntil, setWatchUntil] = useState(0);
  useEffect(() => {
    if (!flag) return;
    if (flag === 'returned') setWatchUntil(Date.now() + WATCH_AFTER_ONBOARDING_MS);
    if (flag === 'returned')
      toast.success('Payout account details saved', {
        id: 'payout-onboarding',
        description: 'The checklist below shows anything still needed.',
      });
    else
      toast.error('That setup link has expired', {
        id: 'payout-onboarding',
        description: 'Press “Set up payout account” again for a new one.',
      });
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('onboarding');
        return next;
      },
      { replace: true },
    );
  }, [flag, setParams]);
  return watchUntil;
}

function BalanceCard({ data }: { data: MyPayouts }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Balance</CardTitle>
        <CardDescription>What you have earned and not yet been paid.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-2">
        <p className="text-4xl font-bold tracking-tight" data-testid="payout-balance">
          {formatUsd(data.balance)}
        </p>
        <p className="text-sm text-muted-foreground">
          Exactly <span className="break-all font-mono">${data.balance}</span> USD. The next payout would send{' '}
          <strong className="font-medium text-foreground">{formatUsd(data.payable)}</strong> (whole cents,
          rounded down; the rest stays in your balance).
        </p>
        {data.rail === 'sandbox' ? (
          <p className="text-xs text-muted-foreground">
            Test payouts: this Omni pays through the payout sandbox, and no real money moves.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

function Checklist({ data }: { data: MyPayouts }) {
  const { checklist } = data;
  const last = data.payouts[0];
  const retry = last?.state === 'failed' ? last.retryAt : null;
  return (
    <Card data-testid="payout-checklist">
      <CardHeader>
        <CardTitle>
          {checklist.ready
            ? 'Ready for the next payout'
            : data.payouts.length === 0
              ? 'Why you have not been paid yet'
              : 'Before your next payout'}
        </CardTitle>
        <CardDescription>
          Payouts go out every 30 days. The next run is on{' '}
          <strong className="font-medium text-foreground">{formatPublished(checklist.nextRun)}</strong>.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="space-y-3">
          {checklist.items.map((item) => (
            <li key={item.key} className="flex gap-3">
              {item.ok ? (
                <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-emerald-600" aria-label="Done" />
              ) : (
                <CircleAlert className="mt-0.5 h-5 w-5 shrink-0 text-amber-600" aria-label="To do" />
              )}
              <span className="text-sm">{item.text}</span>
            </li>
          ))}
        </ul>
        {checklist.lastFailure ? (
          <p role="alert" className="mt-4 text-sm font-medium text-destructive">
            {checklist.lastFailure}
            {retry ? ` Next try: ${formatPublished(retry)}.` : ''}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

function AccountCard({ data }: { data: MyPayouts }) {
  const go = useMutation({
    mutationFn: startOnboarding,
    onSuccess: (url) => window.location.assign(url),
    onError: (err) =>
      toast.error('Could not open the payout account setup', {
        id: 'payout-onboarding',
        description: serverMessage(err) ?? 'Something went wrong on our side. Try again in a moment.',
      }),
  });
  const { status, currentlyDue } = data.account;
  const label =
    status === 'none'
      ? 'Set up payout account'
      : status === 'verified'
        ? 'Update payout account'
        : 'Continue payout account setup';
  return (
    <Card>
      <CardHeader>
        <CardTitle>Payout account</CardTitle>
        <CardDescription>
          Where your money is sent. You give your bank details to our payout provider on its own secure page;
          Omni never sees them.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <p className="text-sm">
          <span className="font-medium">Status: </span>
          {ACCOUNT_WORDS[status]}
          {currentlyDue.length > 0 && status !== 'none'
            ? ` Still needed: ${currentlyDue.length} detail${currentlyDue.length === 1 ? '' : 's'}.`
            : ''}
        </p>
        <Button onClick={() => go.mutate()} disabled={go.isPending}>
          <ExternalLink className="mr-2 h-4 w-4" aria-hidden="true" />
          {go.isPending ? 'Opening…' : label}
        </Button>
      </CardContent>
    </Card>
  );
}

function TaxFormCard({ data, onSaved }: { data: MyPayouts; onSaved: (d: MyPayouts) => void }) {
  const given = data.taxForm;
  const [editing, setEditing] = useState(!given);
  const countryId = useId();
  const {
    register,
    handleSubmit,
    watch,
    control,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TaxFormBody>({
    resolver: zodResolver(taxFormBody),
    defaultValues: {
      kind: given?.kind ?? 'W-9',
      legalName: given?.legalName ?? '',
      country: given?.country ?? 'US',
      treatyClaim: given?.treatyClaim ?? '',
      certify: false as unknown as true,
    },
  });
  const kind = watch('kind');

  async function onSubmit(values: TaxFormBody) {
    try {
      const next = await saveTaxForm({ ...values, country: values.country.toUpperCase() });
      onSaved(next);
      setEditing(false);
      toast.success('Tax form saved', { id: 'payout-tax-form' });
    } catch (err) {
      const message = serverMessage(err) ?? errorMessage(err, 'The tax form could not be saved.');
      setError('root', { message });
      toast.error('Tax form not saved', { id: 'payout-tax-form', description: message });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Tax form</CardTitle>
        <CardDescription>
          A W-9 if you are a US person, a W-8BEN if you are not. Omni records it as you give it.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <p className="rounded-md bg-muted px-3 py-2 text-sm" data-testid="withholding-note">
          {data.withholdingNote}
        </p>
        {given && !editing ? (
          <div className="space-y-3 text-sm">
            <p>
              <span className="font-medium">{given.kind}</span> for {given.legalName} ({given.country}),
              signed {formatPublished(given.signedAt)}.
              {given.treatyClaim ? ` Treaty claim: ${given.treatyClaim}.` : ''}
            </p>
            <Button variant="outline" onClick={() => setEditing(true)}>
              Replace tax form
            </Button>
          </div>
        ) : (
          <form className="space-y-4" onSubmit={handleSubmit(onSubmit)} noValidate>
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium">Form</legend>
              <div className="flex flex-wrap gap-4">
                {(['W-9', 'W-8BEN'] as const).map((k) => (
                  <label key={k} className="flex items-center gap-2 text-sm">
                    <input type="radio" value={k} {...register('kind')} />
                    {k === 'W-9' ? 'W-9 (US person)' : 'W-8BEN (not a US person)'}
                  </label>
                ))}
              </div>
            </fieldset>
            <FormField
              label="Legal name"
              autoComplete="name"
              hint="As on your tax return."
              error={errors.legalName?.message}
              {...register('legalName')}
            />
            <div className="space-y-2">
              <Label htmlFor={countryId}>Country of tax residence</Label>
              <input
                id={countryId}
                className={`${selectClass} uppercase`}
                maxLength={2}
                autoComplete="country"
                aria-invalid={errors.country ? true : undefined}
                {...register('country', { setValueAs: (v: string) => v.trim().toUpperCase() })}
              />
              <p className="text-xs text-muted-foreground">Two letters, like US, FR or GB.</p>
              {errors.country ? (
                <p className="text-sm font-medium text-destructive">{errors.country.message}</p>
              ) : null}
            </div>
            {kind === 'W-8BEN' ? (
              <FormField
                label="Treaty claim (optional)"
                hint="The treaty article and rate you claim, e.g. “Article 12, 0%”."
                error={errors.treatyClaim?.message}
                {...register('treatyClaim')}
              />
            ) : null}
            <Controller
              control={control}
              name="certify"
              render={({ field }) => (
                <div className="flex items-start gap-2">
                  <Checkbox
                    id={`${countryId}-certify`}
                    checked={field.value === true}
                    onCheckedChange={(v) => field.onChange(v === true)}
                    aria-invalid={errors.certify ? true : undefined}
                  />
                  <Label htmlFor={`${countryId}-certify`} className="text-sm font-normal leading-snug">
                    I certify that the information on this form is true and correct.
                  </Label>
                </div>
              )}
            />
            {errors.certify ? (
              <p className="text-sm font-medium text-destructive">{errors.certify.message}</p>
            ) : null}
            {errors.root ? (
              <p role="alert" className="text-sm font-medium text-destructive">
                {errors.root.message}
              </p>
            ) : null}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={isSubmitting}>
                {isSubmitting ? 'Saving…' : 'Save tax form'}
              </Button>
              {given ? (
                <Button type="button" variant="ghost" onClick={() => setEditing(false)}>
                  Cancel
                </Button>
              ) : null}
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}

function MinimumCard({ data, onSaved }: { data: MyPayouts; onSaved: (d: MyPayouts) => void }) {
  const id = useId();
  const [text, setText] = useState((data.minimumCents / 100).toFixed(2));
  const [error, setError] = useState('');
  const save = useMutation({
    mutationFn: (cents: number) => saveMinimum({ minimumCents: cents }),
    onSuccess: (next) => {
      onSaved(next);
      setText((next.minimumCents / 100).toFixed(2));
      toast.success('Minimum payout saved', { id: 'payout-minimum' });
    },
    onError: (err) => setError(serverMessage(err) ?? errorMessage(err, 'The minimum could not be saved.')),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Minimum payout</CardTitle>
        <CardDescription>
          You are paid once your balance reaches this. The default is{' '}
          {formatUsd(String(data.defaultMinimumCents / 100))}; you may lower it down to{' '}
          {formatUsd(String(data.railMinimumCents / 100))}.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-wrap items-end gap-3"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const parsed = parseMinimum(text, data.railMinimumCents);
            if ('error' in parsed) return setError(parsed.error);
            setError('');
            save.mutate(parsed.cents);
          }}
        >
          <div className="w-40 space-y-2">
            <Label htmlFor={id}>Minimum (USD)</Label>
            <input
              id={id}
              inputMode="decimal"
              className={selectClass}
              value={text}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => setText(e.target.value)}
            />
          </div>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save minimum'}
          </Button>
          {error ? (
            <p id={`${id}-error`} role="alert" className="basis-full text-sm font-medium text-destructive">
              {error}
            </p>
          ) : null}
        </form>
      </CardContent>
    </Card>
  );
}

function History({ payouts }: { payouts: Payout[] }) {
  return (
    <Card data-testid="payout-history">
      <CardHeader>
        <CardTitle>Payouts</CardTitle>
        <CardDescription>Every payout sent to your account, newest first.</CardDescription>
      </CardHeader>
      <CardContent>
        {payouts.length === 0 ? (
          <p className="text-sm text-muted-foreground">No payouts yet.</p>
        ) : (
          <ul className="divide-y">
            {payouts.map((p) => (
              <li key={p.id} className="flex items-start justify-between gap-4 py-3">
                <div className="min-w-0 flex-1">
                  <p className="font-medium">{formatUsd(p.amount)}</p>
                  <p className="text-xs text-muted-foreground">
                    Sent {formatPublished(p.createdAt)}
                    {p.attempt > 1 ? ` · attempt ${p.attempt}` : ''}
                  </p>
                  {p.state === 'failed' ? (
                    <p className="mt-1 text-sm text-destructive">
                      {p.failure ?? 'The bank returned it.'} The money is back in your balance.
                      {p.retryAt
                        ? ` Next try: ${formatPublished(p.retryAt)}.`
                        : p.attempt > 3
                          ? ' No more automatic tries: check your payout account.'
                          : ''}
                    </p>
                  ) : null}
                </div>
                <Badge variant={STATE_VARIANT[p.state]} className="shrink-0">
                  {STATE_WORDS[p.state]}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function StatementView({ period }: { period: string }) {
  const { session } = useSession();
  const statement = useQuery({
    queryKey: ['payout-statement', session?.user.id, period],
    queryFn: () => fetchStatement(period),
    enabled: !!session,
  });
  if (statement.isPending) return <Spinner label="Loading the statement…" />;
  if (statement.error)
    return (
      <p role="alert" className="text-sm text-destructive">
        {serverMessage(statement.error) ?? 'The statement could not be loaded.'} Try again in a moment.
      </p>
    );
  return <StatementTable s={statement.data} />;
}

function Row({ label, amount, strong }: { label: string; amount: string; strong?: boolean }) {
  return (
    <div className={`flex justify-between gap-4 py-1 text-sm ${strong ? 'font-semibold' : ''}`}>
      <span className="min-w-0">{label}</span>
      <span className="shrink-0 tabular-nums" title={`$${amount}`}>
        {formatUsd(amount)}
      </span>
    </div>
  );
}

function StatementTable({ s }: { s: PayeeStatement }) {
  return (
    <div className="space-y-1" data-testid="payout-statement">
      <Row label="Opening balance" amount={s.opening} strong />
      {s.income.map((r) => (
        <Row
          key={`${r.store}|${r.territory}|${r.saleMonth}`}
          label={`${r.store} · ${r.territory} · sales of ${monthName(r.saleMonth)}`}
          amount={r.amount}
        />
      ))}
      <Row label="Income" amount={s.incomeTotal} />
      {s.recoupment !== '0' && s.recoupment !== '0.00' ? (
        <Row label="Expenses repaid to you" amount={s.recoupment} />
      ) : null}
      {s.transfers.map((t) => (
        <Row
          key={t.id}
          label={`Payout ${formatPublished(t.date)} (${STATE_WORDS[t.state].toLowerCase()})`}
          amount={`-${t.amount}`}
        />
      ))}
      {s.returned.map((t) => (
        <Row key={t.id} label={`Returned ${formatPublished(t.date)}: ${t.reason}`} amount={t.amount} />
      ))}
      <Row label={`Closing balance${s.closed ? '' : ' (to date)'}`} amount={s.closing} strong />
    </div>
  );
}

function Statements({ statements }: { statements: MyPayouts['statements'] }) {
  const [open, setOpen] = useState<string | null>(null);
  const [busy, setBusy] = useState('');
  const download = async (period: string, format: 'csv' | 'pdf') => {
    setBusy(`${period}.${format}`);
    try {
      await downloadStatement(period, format);
    } catch (err) {
      toast.error('Download failed', {
        id: 'payout-statement',
        description: serverMessage(err) ?? 'Something went wrong on our side. Try again in a moment.',
      });
    } finally {
      setBusy('');
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Monthly statements</CardTitle>
        <CardDescription>
          Income by store, territory and sale month, and the payouts of each month.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {statements.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No statements yet: they start with your first income.
          </p>
        ) : (
          <ul className="divide-y">
            {statements.map((s) => (
              <li key={s.period} className="space-y-3 py-3">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <p className="font-medium">
                    {monthName(s.period)}
                    {s.closed ? '' : <span className="font-normal text-muted-foreground"> (to date)</span>}
                  </p>
                  <div className="flex flex-wrap gap-2">
                    <Button
                      size="sm"
                      variant="outline"
                      aria-expanded={open === s.period}
                      onClick={() => setOpen(open === s.period ? null : s.period)}
                    >
                      {open === s.period ? 'Hide' : 'View'}
                    </Button>
                    {(['csv', 'pdf'] as const).map((f) => (
                      <Button
                        key={f}
                        size="sm"
                        variant="outline"
                        disabled={busy === `${s.period}.${f}`}
                        onClick={() => void download(s.period, f)}
                        aria-label={`Download the ${monthName(s.period)} statement as ${f.toUpperCase()}`}
                      >
                        <Download className="mr-1 h-4 w-4" aria-hidden="true" />
                        {f.toUpperCase()}
                      </Button>
                    ))}
                  </div>
                </div>
                {open === s.period ? <StatementView period={s.period} /> : null}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function Payouts() {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const watchUntil = useOnboardingReturn();
  const payouts = usePayouts(watchUntil);
  const onSaved = (next: MyPayouts) => queryClient.setQueryData(payoutsQueryKey(session?.user.id), next);

  if (payouts.isPending) return <Spinner label="Loading your payouts…" />;
  if (payouts.error)
    return (
      <div role="alert" className="space-y-3 rounded-lg border border-destructive/40 bg-card p-6">
        <p className="font-medium text-destructive">Your payouts could not be loaded.</p>
        <p className="text-sm text-muted-foreground">
          {serverMessage(payouts.error) ?? 'Something went wrong on our side.'} Try again in a moment.
        </p>
        <Button variant="outline" onClick={() => void payouts.refetch()}>
          Try again
        </Button>
      </div>
    );
  const data = payouts.data;
  return (
    <div className="space-y-6">
      {/* What the payee has and why it is not paid, then what they can do about it, then the record. */}
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <BalanceCard data={data} />
        <Checklist data={data} />
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <div className="min-w-0 space-y-6">
          <AccountCard data={data} />
          <MinimumCard key={data.minimumCents} data={data} onSaved={onSaved} />
        </div>
        <TaxFormCard data={data} onSaved={onSaved} />
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <History payouts={data.payouts} />
        <Statements statements={data.statements} />
      </div>
    </div>
  );
}

/** /app/payouts: the payee's balance, why it has not been paid, their payout account, tax form, payouts and statements. */
export default function PayoutsPage() {
  useDocumentTitle('Payouts');
  return (
    <RequireSession>
      <PageFrame>
        <div>
          <Link
            to="/app"
            className="inline-flex items-center gap-1 text-sm font-medium text-muted-foreground hover:text-foreground"
          >
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            Dashboard
          </Link>
          <h1 className="mt-2 text-3xl font-bold tracking-tight">Payouts</h1>
          <p className="mt-2 max-w-3xl text-muted-foreground">
            Your share of every statement is added to your balance. Every 30 days Omni sends it to your payout
            account, once your tax form is in, your account is set up and the balance reaches your minimum.
          </p>
        </div>
        <Payouts />
      </PageFrame>
    </RequireSession>
  );
}
