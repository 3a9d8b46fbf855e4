// A payee's monthly statement: opening balance, income by store, territory and sale month (what the
// allocator credited that month), recoupment (expenses repaid to them), transfers (payouts made that
// month) and returns (payouts that failed that month: the money came back), closing balance — on screen,
// as CSV and as PDF. A month is closed once it is over; the current month's statement is "to date".
// Only the payee (or an admin) sees it: another payee's statement is the 404 a missing one is.
import { notFoundError } from '@omni/platform';
import type { PayeeStatement } from '@omni/proto/api';
import { failureWords } from '../../domain/payouts/payout';
import { incomeRowsOf } from '../../store/payees';
import type { PayoutDoc } from '../../store/payouts';
import { nowOf, type PayoutCaller, type PayoutDeps, partiesOf, usd } from './context';

const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;
export const NO_SUCH_STATEMENT = 'No such statement.';

const failedAt = (p: PayoutDoc) => p.history.find((h) => h.state === 'failed')?.at ?? p.updatedAt;

async function material(deps: PayoutDeps, payeeId: string) {
  const parties = (await partiesOf(deps, [payeeId])).get(payeeId)!;
  const income = await deps.payees.incomeOf(parties);
  const payouts = await deps.payouts.payouts.find({ payeeId });
  return { income, payouts };
}

/** The months a payee has a statement for, newest first. */
export async function statementPeriods(deps: PayoutDeps, payeeId: string) {
  const { income, payouts } = await material(deps, payeeId);
  const current = nowOf(deps).toISOString().slice(0, 7);
  const periods = new Set<string>(income.map((d) => d.period));
  for (const p of payouts) {
    periods.add(p.createdAt.slice(0, 7));
    if (p.state === 'failed') periods.add(failedAt(p).slice(0, 7));
  }
  return [...periods]
    .sort((a, b) => b.localeCompare(a))
    .map((period) => ({ period, closed: period < current }));
}

export async function payeeStatement(
  deps: PayoutDeps,
  caller: PayoutCaller,
  payeeId: string,
  period: string,
): Promise<PayeeStatement> {
  if (!PERIOD.test(period) || (payeeId !== caller.userId && !caller.isAdmin))
    throw notFoundError(NO_SUCH_STATEMENT);
  const { income, payouts } = await material(deps, payeeId);
  let opening = 0n;
  let incomeTotal = 0n;
  let recoupment = 0n;
  const rows = new Map<string, { store: string; territory: string; saleMonth: string; amount: bigint }>();
  for (const d of income) {
    if (d.period < period) opening += BigInt(d.total);
    if (d.period !== period) continue;
    for (const [store, territory, saleMonth, kind, amount] of incomeRowsOf(d)) {
      const a = BigInt(amount);
      if (kind === 'recoup') {
        recoupment += a;
        continue;
      }
      incomeTotal += a;
      const k = `${store}|${territory}|${saleMonth}`;
      const r = rows.get(k);
      if (r) r.amount += a;
      else rows.set(k, { store, territory, saleMonth, amount: a });
    }
  }
  const transfers: PeriodTransfer[] = [];
  const returned: PeriodReturn[] = [];
  let transfersTotal = 0n;
  let returnedTotal = 0n;
  for (const p of payouts) {
    const amount = BigInt(p.amountNano);
    const made = p.createdAt.slice(0, 7);
    if (made < period) opening -= amount;
    if (made === period) {
      transfers.push({ id: p._id, date: p.createdAt.slice(0, 10), amount, state: p.state });
      transfersTotal += amount;
    }
    if (p.state !== 'failed') continue;
    const back = failedAt(p);
    if (back.slice(0, 7) < period) opening += amount;
    if (back.slice(0, 7) === period) {
      returned.push({
        id: p._id,
        date: back.slice(0, 10),
        amount,
        reason: p.failure ? failureWords(p.failure) : '',
      });
      returnedTotal += amount;
    }
  }
  const closing = opening + incomeTotal + recoupment - transfersTotal + returnedTotal;
  const current = nowOf(deps).toISOString().slice(0, 7);
  return {
    payeeId,
    period,
    closed: period < current,
    currency: 'USD',
    opening: usd(opening),
    income: [...rows.values()]
      .sort(
        (a, b) =>
          a.saleMonth.localeCompare(b.saleMonth) ||
          a.store.localeCompare(b.store) ||
          a.territory.localeCompare(b.territory),
      )
      .map((r) => ({ ...r, amount: usd(r.amount) })),
    incomeTotal: usd(incomeTotal),
    recoupment: usd(recoupment),
    transfers: transfers
      .sort((a, b) => a.date.localeCompare(b.date))
      .map((t) => ({ ...t, amount: usd(t.amount) })),
    returned: returned.map((t) => ({ ...t, amount: usd(t.amount) })),
    transfersTotal: usd(transfersTotal),
    returnedTotal: usd(returnedTotal),
    closing: usd(closing),
  };
}

interface PeriodTransfer {
  id: string;
  date: string;
  amount: bigint;
  state: PayoutDoc['state'];
}
interface PeriodReturn {
  id: string;
  date: string;
  amount: bigint;
  reason: string;
}

const AMOUNT = /^-?\d+(\.\d+)?$/;
/**
 * RFC 4180 quoting; text a spreadsheet would run as a formula (=, +, -, @, tab, CR first: a store's name
 * comes from a DSR) is prefixed with an apostrophe, as the other CSVs do. Amounts stay exact and unquoted
 * (quoting "-12.34" neither guards anything nor reads as a number to simple parsers).
 */
const cell = (v: string) => {
  const text = !AMOUNT.test(v) && /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The statement as CSV: one section per part, amounts as decimal strings (USD). */
export function statementCsv(s: PayeeStatement): string {
  const lines: string[][] = [
    ['section', 'store', 'territory', 'sale_month', 'date', 'description', 'amount_usd'],
    ['opening_balance', '', '', '', '', `Opening balance ${s.period}`, s.opening],
    ...s.income.map((r) => ['income', r.store, r.territory, r.saleMonth, '', '', r.amount]),
    ['income_total', '', '', '', '', '', s.incomeTotal],
    ['recoupment', '', '', '', '', 'Expenses repaid to you', s.recoupment],
    ...s.transfers.map((t) => [
      'transfer',
      '',
      '',
      '',
      t.date,
      `Payout ${t.id} (${t.state})`,
      `-${t.amount}`,
    ]),
    ...s.returned.map((t) => [
      'returned',
      '',
      '',
      '',
      t.date,
      `Payout ${t.id} failed: ${t.reason}`,
      t.amount,
    ]),
    [
      'closing_balance',
      '',
      '',
      '',
      '',
      `Closing balance ${s.period}${s.closed ? '' : ' (to date)'}`,
      s.closing,
    ],
  ];
  return `${lines.map((l) => l.map(cell).join(',')).join('\r\n')}\r\n`;
}

/** The statement as a PDF (pdf-lib, standard Helvetica: no font files to ship). */
export async function statementPdf(s: PayeeStatement, payeeName: string): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Omni statement ${s.period}`);
  pdf.setProducer('Omni');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  // WinAnsi only: anything else is shown as '?' rather than failing the whole statement.
  const safe = (t: string) => t.replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?');
  let page = pdf.addPage([595, 842]);
  let y = 800;
  const line = (text: string, o: { x?: number; size?: number; bold?: boolean; right?: string } = {}) => {
    if (y < 60) {
      page = pdf.addPage([595, 842]);
      y = 800;
    }
    const size = o.size ?? 10;
    const f = o.bold ? bold : font;
    page.drawText(safe(text), { x: o.x ?? 50, y, size, font: f, color: rgb(0.1, 0.1, 0.12) });
    if (o.right !== undefined) {
      const r = safe(o.right);
      page.drawText(r, { x: 545 - f.widthOfTextAtSize(r, size), y, size, font: f });
    }
    y -= size + 6;
  };
  line(`Omni royalty statement - ${s.period}${s.closed ? '' : ' (to date)'}`, { size: 16, bold: true });
  line(`Payee: ${payeeName}`);
  y -= 6;
  line('Opening balance', { bold: true, right: `$${s.opening}` });
  y -= 4;
  line('Income (store, territory, sale month)', { bold: true });
  for (const r of s.income)
    line(`${r.store} · ${r.territory} · ${r.saleMonth}`, { x: 62, right: `$${r.amount}` });
  line('Income total', { right: `$${s.incomeTotal}` });
  line('Recoupment (expenses repaid to you)', { right: `$${s.recoupment}` });
  y -= 4;
  line('Transfers', { bold: true });
  for (const t of s.transfers)
    line(`${t.date} payout (${t.state.replace('_', ' ')})`, { x: 62, right: `-$${t.amount}` });
  for (const t of s.returned) line(`${t.date} returned: ${t.reason}`, { x: 62, right: `$${t.amount}` });
  y -= 4;
  line('Closing balance', { bold: true, right: `$${s.closing}` });
  y -= 10;
  line('Amounts in USD. Payouts are whole cents rounded down; the remainder stays in your balance.', {
    size: 8,
  });
  return pdf.save();
}
