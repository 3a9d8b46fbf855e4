// Statements in, earnings out, on Omni started as `npm start` starts it (a child process on a fresh data
// folder; on the cluster in CI's second run): an artist signs up and creates a release through the API;
// the administrator imports two stores' reports for its recording through POST /api/admin/statements: an
// Omni canonical CSV (gzip) with lines in two stores and two territories plus one line for an ISRC no one
// at Omni has, and a DDEX DSR in the FinancialReportingToRecordCompaniesProfileSRB profile written with the
// delivery simulator's own writer. Every amount the test expects is summed here in bigint nano-dollars from
// what it wrote: /api/dashboard's total is both files' lines for the artist to the nano, the monthly
// streams are the latest sale month's; the same CSV again answers `duplicate` and changes nothing; the
// unknown ISRC waits in the unmatched queue with its amount; each import reconciles. Then the screens in
// Chromium at 1280 px: /admin/statements (both imports, balanced), /app (Monthly Streams and Total
// Earnings with their months) and /app/analytics (by store and by territory, the exact amounts).
import { randomInt } from 'node:crypto';
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import {
  analytics as analyticsSchema,
  dashboardSchema,
  type StatementImport,
  statementAccepted,
  statementImport,
  statementList,
  unmatchedList,
} from '@omni/proto/api';
import type { Browser, Locator } from 'playwright-core';
// The writer's own modules (the reports folder's index also brings the simulator's sales model).
import {
  createDsrWriter,
  type Sr08Line,
  SummaryTotals,
  type Sy10Summary,
} from '../../services/delivery/src/simulator/reports/dsr-writer';
import { parseNano } from '../../services/delivery/src/simulator/reports/nano';
import { launchBrowser } from '../support/browser';
import type { ApiSession } from '../support/session';
import { verifiedSession } from '../support/session';
import { call, createRelease, deliveries, login } from './support/api';
import { eventually, type Omni, startOmni } from './support/omni-process';
import { newEmail, PASSWORD, personPage, shot, signIn } from './support/people';

const JOURNEY = 'royalties';
const NANO = 1_000_000_000n;

let omni: Omni;
let browser: Browser;
let admin: ApiSession;

beforeAll(async () => {
  omni = await startOmni({ name: JOURNEY });
  browser = await launchBrowser();
  admin = await login(omni.url, omni.admin.email, omni.admin.password);
}, 420_000);

afterAll(async () => {
  await browser?.close();
  await omni?.stop();
}, 120_000);

// ---- money, exactly ------------------------------------------------------------------------------------

/** A decimal USD string ("-0.007", "12.00") as integer nano-dollars; throws on anything else. */
function nano(amount: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d{1,9}))?$/.exec(amount);
  if (!m) throw new Error(`"${amount}" is not a decimal amount`);
  const value = BigInt(m[2] as string) * NANO + BigInt((m[3] ?? '').padEnd(9, '0'));
  return m[1] ? -value : value;
}

/** "$1,234.57": rounded to the cent, halves away from zero (what the screens show). */
function cents(value: bigint): string {
  const abs = value < 0n ? -value : value;
  const c = (abs + 5_000_000n) / 10_000_000n;
  const text = `$${(c / 100n).toLocaleString('en-US')}.${(c % 100n).toString().padStart(2, '0')}`;
  return value < 0n && c > 0n ? `-${text}` : text;
}

/** `amount` × `rate` (both nano), rounded to the nano, halves away from zero. */
function times(amount: bigint, rate: bigint): bigint {
  const product = amount * rate;
  const abs = product < 0n ? -product : product;
  const rounded = (abs + NANO / 2n) / NANO;
  return product < 0n ? -rounded : rounded;
}

const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);

/** Adds `value` under `key`. */
function addTo(map: Map<string, bigint>, key: string, value: bigint) {
  map.set(key, (map.get(key) ?? 0n) + value);
}

// ---- the two reports -------------------------------------------------------------------------------------

const CSV_HEADER =
  'sale_start,sale_end,reported_at,store,service_tier,territory,usage_type,isrc,upc,title,artist,quantity,amount,currency,amount_usd,fx_rate,fx_date,adjustment_type';

interface CsvLine {
  store: string;
  tier: string;
  territory: string;
  isrc: string;
  title: string;
  quantity: number;
  amount: string;
  currency: string;
  amountUsd: string;
  fxRate: string;
}

/** The omni canonical CSV for August 2026, reported 2026-10-15. */
function canonicalCsv(lines: CsvLine[]): string {
  return [
    CSV_HEADER,
    ...lines.map((l) =>
      [
        '2026-08-01',
        '2026-08-31',
        '2026-10-15',
        l.store,
        l.tier,
        l.territory,
        'stream',
        l.isrc,
        '',
        l.title,
        'Journey Artist',
        l.quantity,
        l.amount,
        l.currency,
        l.amountUsd,
        l.fxRate,
        l.currency === 'USD' ? '' : '2026-08-31',
        '',
      ].join(','),
    ),
  ].join('\n');
}

interface DsrPlan {
  summary: Omit<Sy10Summary, 'totals'>;
  territory: string;
  lines: Omit<Sr08Line, 'summaryId'>[];
}

/**
 * A DSR (Financial Reporting SRB 1.0) for September 2026 from "Deezer", written with the delivery
 * simulator's writer into memory: the bytes and what the writer says it wrote.
 */
async function dsrFile(messageId: string, plans: DsrPlan[]) {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  const writer = createDsrWriter(out, {
    messageId,
    createdAt: '2026-11-12T09:30:00Z',
    usageStart: '2026-09-01',
    usageEnd: '2026-09-30',
    sender: { partyId: 'PADPIDA2014120301U', name: 'Deezer' },
    recipient: { partyId: 'PADPIDA2099010101O', name: 'Omni' },
    serviceDescription: 'DeezerPremium',
  });
  // Summaries come before their lines, with the lines' totals (the writer checks them at the end).
  const ids = plans.map((plan) => {
    const rate = parseNano(plan.summary.exchangeRate);
    const totals = new SummaryTotals();
    for (const line of plan.lines) totals.add({ ...line, summaryId: '' }, rate);
    return writer.summary({ ...plan.summary, totals });
  });
  for (const [i, plan] of plans.entries())
    for (const line of plan.lines) await writer.line({ ...line, summaryId: ids[i] as string });
  const result = await writer.end();
  return { bytes: Buffer.concat(chunks), result };
}

/**
 * What one SR08 line allocates to Omni in USD, worked out here from the line as written (DSR Part 9:
 * AllocatedNetRevenueInCurrencyOfAccounting): net usages × unit price in the transaction currency, each
 * amount converted once at the summary's rate, deductions taken off after conversion.
 */
function dsrLineUsd(line: Omit<Sr08Line, 'summaryId'>, rate: bigint): bigint {
  const revenue = BigInt(line.usages - line.returns) * line.unitPriceNano;
  const deductions = (line.deductions ?? []).map((d) => times(d.nano, rate));
  return times(revenue, rate) - sum(deductions);
}

// ---- the API ---------------------------------------------------------------------------------------------

async function json(res: Response, what: string, status = 200): Promise<unknown> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${text}`);
  return JSON.parse(text);
}

const sendStatement = (source: string, fileName: string, body: Buffer) =>
  call(omni.url, `/api/admin/statements?source=${source}`, admin.accessToken, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/octet-stream', 'x-file-name': fileName },
  });

async function importOf(id: string): Promise<StatementImport> {
  const res = await call(omni.url, `/api/admin/statements/${encodeURIComponent(id)}`, admin.accessToken);
  return statementImport.parse(await json(res, `GET /api/admin/statements/${id}`));
}

/** Polls the import until it is done or refused. */
async function finished(id: string): Promise<StatementImport> {
  let last: StatementImport | undefined;
  return eventually(
    async () => {
      last = await importOf(id);
      return last.state === 'done' || last.state === 'refused' ? last : undefined;
    },
    () => `import ${id} to finish (last seen: ${JSON.stringify(last)})`,
    180_000,
    500,
  );
}

const dashboard = async (session: ApiSession) =>
  dashboardSchema.parse(
    await json(await call(omni.url, '/api/dashboard', session.accessToken), 'GET /api/dashboard'),
  );

const unmatched = async () =>
  unmatchedList.parse(
    await json(
      await call(omni.url, '/api/admin/statements/unmatched', admin.accessToken),
      'GET /api/admin/statements/unmatched',
    ),
  );

const importsList = async () =>
  statementList.parse(
    await json(await call(omni.url, '/api/admin/statements', admin.accessToken), 'GET /api/admin/statements'),
  ).imports;

/** The reconciliation as nano-dollars, checked to add up: imported + unmatched + refused = file. */
function reconciled(imp: StatementImport) {
  const r = imp.reconciliation;
  const parts = {
    file: nano(r.file),
    imported: nano(r.imported),
    unmatched: nano(r.unmatched),
    refused: nano(r.refused),
  };
  expect({
    file: imp.fileName,
    balanced: r.balanced,
    sum: parts.imported + parts.unmatched + parts.refused,
  }).toEqual({ file: imp.fileName, balanced: true, sum: parts.file });
  return parts;
}

// ---- the journey -----------------------------------------------------------------------------------------

/** What the API steps found, for the screens. */
interface Found {
  artistEmail: string;
  csvImport: StatementImport;
  dsrImport: StatementImport;
  unknownIsrc: string;
  unknownUsd: bigint;
  totalUsd: bigint;
  streamsOfLatestMonth: number;
  byStore: Map<string, bigint>;
  byTerritory: Map<string, bigint>;
}
let found: Found | undefined;

it('an artist’s release; the admin imports a CSV and a DSR; the dashboard, analytics, duplicate and unmatched queue add up to the nano', async () => {
  try {
    // 1. An artist signs up (the mailbox's link confirms the address) and creates a release, files uploaded.
    const artistEmail = newEmail('royalties');
    const artist = await verifiedSession(omni.url, artistEmail, PASSWORD);
    const release = await createRelease(omni.url, artist, {
      title: 'Royalty Road',
      stores: ['spotify', 'deezer'],
    });
    expect(release.isrc).toMatch(/^[A-Z]{2}[A-Z0-9]{3}\d{7}$/);
    const isrc = release.isrc;
    // Unique per run: no Omni recording has it, and the files differ from any other run's (duplicates are
    // recognised by their bytes, DSRs by sender and MessageId).
    const unknownIsrc = `QZZZZ${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;

    const byStore = new Map<string, bigint>();
    const byTerritory = new Map<string, bigint>();

    // 2. The CSV: two stores × two territories for the artist's ISRC (in USD and in EUR with its USD
    // amount), and one line for the unknown ISRC.
    const csvLines: CsvLine[] = [
      {
        store: 'Spotify',
        tier: 'premium',
        territory: 'US',
        isrc,
        title: 'Royalty Road',
        quantity: 1200,
        amount: '4.123456789',
        currency: 'USD',
        amountUsd: '4.123456789',
        fxRate: '1',
      },
      {
        store: 'Spotify',
        tier: 'ad-supported',
        territory: 'DE',
        isrc,
        title: 'Royalty Road',
        quantity: 800,
        amount: '1.50',
        currency: 'EUR',
        amountUsd: '1.627500003',
        fxRate: '1.085',
      },
      {
        store: 'Apple Music',
        tier: '',
        territory: 'US',
        isrc,
        title: 'Royalty Road',
        quantity: 300,
        amount: '2.10000001',
        currency: 'USD',
        amountUsd: '2.10000001',
        fxRate: '1',
      },
      {
        store: 'Apple Music',
        tier: '',
        territory: 'DE',
        isrc,
        title: 'Royalty Road',
        quantity: 150,
        amount: '0.61',
        currency: 'EUR',
        amountUsd: '0.66185',
        fxRate: '1.085',
      },
      {
        store: 'Spotify',
        tier: 'premium',
        territory: 'US',
        isrc: unknownIsrc,
        title: 'Someone Else Song',
        quantity: 999,
        amount: '3.330000007',
        currency: 'USD',
        amountUsd: '3.330000007',
        fxRate: '1',
      },
    ];
    const ours = csvLines.filter((l) => l.isrc === isrc);
    const csvArtistUsd = sum(ours.map((l) => nano(l.amountUsd)));
    const unknownUsd = nano(csvLines[4]!.amountUsd);
    for (const l of ours) {
      addTo(byStore, l.store, nano(l.amountUsd));
      addTo(byTerritory, l.territory, nano(l.amountUsd));
    }
    const csvBytes = gzipSync(canonicalCsv(csvLines));
    const csvName = `omni-2026-08-${unknownIsrc}.csv.gz`;

    const csvRes = await sendStatement('omni', csvName, csvBytes);
    const csvAccepted = statementAccepted.parse(await json(csvRes, `POST ${csvName}`, 202));
    expect(csvAccepted.duplicate).toBe(false);

    // 3. The DSR from Deezer for September: a subscription summary in France (EUR at 1.085, one line with
    // a spam deduction and one with returns) and an ad-supported one in the US (USD).
    const eurRate = '1.085';
    const plans: DsrPlan[] = [
      {
        territory: 'FR',
        summary: {
          commercialModel: 'SubscriptionModel',
          useType: 'OnDemandStream',
          start: '2026-09-01',
          end: '2026-09-30',
          territory: 'FR',
          serviceDescription: 'DeezerPremium',
          currency: 'EUR',
          exchangeRate: eurRate,
          dateOfCurrencyExchange: '2026-09-30T00:00:00Z',
        },
        lines: [
          {
            dspReleaseId: 'DZR-ALB-1',
            isrc,
            releaseTitle: 'Royalty Road',
            resourceTitle: 'Royalty Road',
            resourceType: 'SoundRecording',
            resourceDisplayArtistName: 'Journey Artist',
            date: '2026-09-14',
            usages: 5000,
            returns: 0,
            unitPriceNano: 3_456_789n,
            deductions: [{ type: 'spam_deduction', nano: 12_345_678n }],
          },
          {
            dspReleaseId: 'DZR-ALB-1',
            isrc,
            releaseTitle: 'Royalty Road',
            resourceTitle: 'Royalty Road',
            resourceType: 'SoundRecording',
            resourceDisplayArtistName: 'Journey Artist',
            date: '2026-09-21',
            usages: 700,
            returns: 3,
            unitPriceNano: 3_456_789n,
          },
        ],
      },
      {
        territory: 'US',
        summary: {
          commercialModel: 'AdvertisementSupportedModel',
          useType: 'OnDemandStream',
          start: '2026-09-01',
          end: '2026-09-30',
          territory: 'US',
          serviceDescription: 'DeezerFree',
          currency: 'USD',
          exchangeRate: '1',
        },
        lines: [
          {
            dspReleaseId: 'DZR-ALB-1',
            isrc,
            releaseTitle: 'Royalty Road',
            resourceTitle: 'Royalty Road',
            resourceType: 'SoundRecording',
            resourceDisplayArtistName: 'Journey Artist',
            date: '2026-09-30',
            usages: 2500,
            returns: 0,
            unitPriceNano: 1_234_567n,
          },
        ],
      },
    ];
    const dsrLines = plans.flatMap((plan) =>
      plan.lines.map((line) => ({ plan, line, usd: dsrLineUsd(line, parseNano(plan.summary.exchangeRate)) })),
    );
    const dsrUsd = sum(dsrLines.map((l) => l.usd));
    for (const l of dsrLines) {
      addTo(byStore, 'Deezer', l.usd);
      addTo(byTerritory, l.plan.territory, l.usd);
    }
    const dsrStreams = sum(dsrLines.map((l) => BigInt(l.line.usages - l.line.returns)));
    const messageId = `OMNI-JOURNEY-${unknownIsrc}`;
    const dsr = await dsrFile(messageId, plans);
    // The writer's own total (FinalTotalAmountInCurrencyOfAccounting summed) is what the test worked out.
    expect(dsr.result.totalAccountingNano).toBe(dsrUsd);
    expect(dsr.result.lines).toBe(3);
    const dsrName = `DSR_PADPIDA2099010101O_PADPIDA2014120301U_DeezerPremium_2026-09_Multi_1of1_${unknownIsrc}.tsv`;
    const dsrRes = await sendStatement('dsr', dsrName, dsr.bytes);
    const dsrAccepted = statementAccepted.parse(await json(dsrRes, `POST ${dsrName}`, 202));
    expect(dsrAccepted.duplicate).toBe(false);

    // 4. Both imports finish; each reconciles to the nano.
    const csvImport = await finished(csvAccepted.id);
    expect({ state: csvImport.state, refusal: csvImport.refusal }).toEqual({ state: 'done', refusal: null });
    expect(csvImport.lines).toEqual({ total: 5, imported: 4, unmatched: 1, refused: 0 });
    expect(csvImport.period).toEqual({ start: '2026-08-01', end: '2026-08-31' });
    expect(csvImport.reportedAt).toBe('2026-10-15');
    expect(reconciled(csvImport)).toEqual({
      file: csvArtistUsd + unknownUsd,
      imported: csvArtistUsd,
      unmatched: unknownUsd,
      refused: 0n,
    });

    const dsrImport = await finished(dsrAccepted.id);
    expect({ state: dsrImport.state, refusal: dsrImport.refusal }).toEqual({ state: 'done', refusal: null });
    expect(dsrImport.lines).toEqual({ total: 3, imported: 3, unmatched: 0, refused: 0 });
    expect(dsrImport).toMatchObject({
      source: 'dsr',
      period: { start: '2026-09-01', end: '2026-09-30' },
      reportedAt: '2026-11-12',
      messageId,
    });
    expect(reconciled(dsrImport)).toEqual({ file: dsrUsd, imported: dsrUsd, unmatched: 0n, refused: 0n });

    // 5. /api/dashboard (parsed with the contract): everything the artist earned, to the nano; the streams of
    // the latest sale month (September, the DSR's), reported in November.
    const totalUsd = csvArtistUsd + dsrUsd;
    const dash = await dashboard(artist);
    expect(dash.totalEarningsUsd && nano(dash.totalEarningsUsd)).toBe(totalUsd);
    // The older field: dollars with two decimals, rounded half away from zero on the cent.
    expect(dash.totalEarnings).toBe(Number((totalUsd + 5_000_000n) / 10_000_000n) / 100);
    expect(dash.monthlyStreams).toBe(Number(dsrStreams));
    expect(dash.streamsMonth).toEqual({ saleMonth: '2026-09', reportedMonth: '2026-11' });
    expect(dash.earningsThrough).toEqual({ saleMonth: '2026-09', reportedMonth: '2026-11' });
    expect(dash.totalReleases).toBe(1);

    // /api/analytics: the same money by month, store and territory.
    const an = analyticsSchema.parse(
      await json(await call(omni.url, '/api/analytics', artist.accessToken), 'GET /api/analytics'),
    );
    const exact = (rows: { key: string; amount: string }[]) =>
      new Map(rows.map((r) => [r.key, nano(r.amount)]));
    expect(nano(an.earnings.totals.amount)).toBe(totalUsd);
    expect(an.earnings.byMonth.map((m) => [m.month, m.streams, nano(m.amount)])).toEqual([
      ['2026-08', ours.reduce((n, l) => n + l.quantity, 0), csvArtistUsd],
      ['2026-09', Number(dsrStreams), dsrUsd],
    ]);
    expect(exact(an.earnings.byStore)).toEqual(byStore);
    expect(exact(an.earnings.byTerritory)).toEqual(byTerritory);

    // 6. The same CSV again, under another name: the earlier import, and nothing changes. (This run's
    // imports are told apart by the unknown ISRC in their names: the simulated stores may add their own.)
    const ofThisRun = async () =>
      (await importsList())
        .filter((i) => i.fileName.includes(unknownIsrc))
        .map((i) => i.id)
        .sort();
    const before = await ofThisRun();
    expect(before).toEqual([csvAccepted.id, dsrAccepted.id].sort());
    const again = await sendStatement('omni', `copy-of-${csvName}`, csvBytes);
    const duplicate = statementAccepted.parse(await json(again, 'POST the same CSV again', 200));
    expect(duplicate).toMatchObject({ id: csvAccepted.id, duplicate: true });
    expect(duplicate.import.fileName).toBe(csvName);
    expect(await ofThisRun()).toEqual(before);
    expect(reconciled(await importOf(csvAccepted.id))).toEqual(reconciled(csvImport));
    const after = await dashboard(artist);
    expect(after.totalEarningsUsd && nano(after.totalEarningsUsd)).toBe(totalUsd);
    expect(after.monthlyStreams).toBe(Number(dsrStreams));

    // 7. The unknown ISRC waits in the queue with its line's amount, named by the CSV import.
    const queue = await unmatched();
    const group = queue.groups.find((g) => g.identifier === unknownIsrc);
    expect(group).toMatchObject({
      kind: 'isrc',
      status: 'open',
      lines: 1,
      quantity: 999,
      title: 'Someone Else Song',
      stores: ['Spotify'],
      imports: [csvAccepted.id],
    });
    expect(nano(group!.amount)).toBe(unknownUsd);
    expect(queue.groups.some((g) => g.identifier === isrc)).toBe(false);

    found = {
      artistEmail,
      csvImport,
      dsrImport,
      unknownIsrc,
      unknownUsd,
      totalUsd,
      streamsOfLatestMonth: Number(dsrStreams),
      byStore,
      byTerritory,
    };
  } catch (err) {
    omni.explain(err);
  }
}, 600_000);

/** The table rows of one of /app/analytics' breakdowns, as [name, amount shown, exact amount]. */
async function breakdownRows(panel: Locator): Promise<[string, string, string][]> {
  const rows = await panel.locator('tbody tr').all();
  return Promise.all(
    rows.map(async (row) => {
      const money = row.locator('[data-amount]');
      return [
        ((await row.locator('td').first().textContent()) ?? '').trim(),
        ((await money.textContent()) ?? '').trim(),
        (await money.getAttribute('data-amount')) ?? '',
      ] as [string, string, string];
    }),
  );
}

/** Rows as the screen should show them: largest first, the name, the cents and the exact figure. */
function expectedRows(amounts: Map<string, bigint>, label: (key: string) => string) {
  return [...amounts]
    .sort(([, a], [, b]) => (b > a ? 1 : b < a ? -1 : 0))
    .map(([key, value]) => [label(key), cents(value), value] as const);
}

const TERRITORIES: Record<string, string> = { US: 'United States', DE: 'Germany', FR: 'France' };

it('the screens: /admin/statements lists both imports balanced; /app and /app/analytics show the figures', async () => {
  if (!found) throw new Error('The API steps did not finish: nothing to look at.');
  const f = found;
  const admin = await personPage(browser);
  const artist = await personPage(browser);
  try {
    // 8. The admin's Statements page: both imports, done and balanced; the unknown ISRC in the queue.
    await signIn(admin, omni.url, omni.admin.email, omni.admin.password);
    await admin.goto(`${omni.url}/admin/statements`);
    await admin.getByRole('heading', { level: 1, name: 'Statements' }).waitFor({ timeout: 30_000 });
    for (const imp of [f.csvImport, f.dsrImport]) {
      const row = admin.locator(`[data-testid="import-row"][data-import-id="${imp.id}"]`);
      await row.waitFor({ timeout: 30_000 });
      await row.getByText(imp.fileName).waitFor();
      expect(((await row.getByTestId('reconciliation').textContent()) ?? '').replace(/\s+/g, ' ')).toContain(
        `${cents(nano(imp.reconciliation.file))} balanced`,
      );
    }
    const waiting = admin.locator(`[data-testid="unmatched-row"][data-identifier="${f.unknownIsrc}"]`);
    await waiting.waitFor({ timeout: 30_000 });
    expect(await waiting.textContent()).toContain(cents(f.unknownUsd));
    await shot(admin, JOURNEY, 'admin-statements');

    // 9. The artist's /app: the statements' figures with their months.
    await signIn(artist, omni.url, f.artistEmail, PASSWORD);
    // Opened again, as a person comes back to it: the sign-in's 'Welcome back!' toast is not in the picture.
    await artist.goto(`${omni.url}/app`);
    const card = (title: string) => artist.getByTestId('stat-card').filter({ hasText: title });
    const streams = card('Monthly Streams');
    await streams
      .getByText(f.streamsOfLatestMonth.toLocaleString('en-US'), { exact: true })
      .waitFor({ timeout: 30_000 });
    expect(await streams.getByTestId('stat-note').textContent()).toBe(
      'Sale month Sep 2026 · reported Nov 2026',
    );
    const earnings = card('Total Earnings');
    await earnings.getByText(cents(f.totalUsd), { exact: true }).waitFor();
    expect(await earnings.getByTestId('stat-note').textContent()).toBe(
      'Through sale month Sep 2026 · reported Nov 2026',
    );
    await shot(artist, JOURNEY, 'app');

    // 10. /app/analytics: by store and by territory, each row's cents and its exact amount.
    await artist.goto(`${omni.url}/app/analytics`);
    await artist.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor({ timeout: 30_000 });
    const byStore = artist.getByTestId('chart-earnings-by-store');
    await byStore.locator('tbody tr').first().waitFor({ timeout: 30_000 });
    const asShown = (rows: readonly (readonly [string, string, bigint])[]) =>
      rows.map(([name, shown, value]) => [name, shown, value]);
    expect((await breakdownRows(byStore)).map(([name, shown, exact]) => [name, shown, nano(exact)])).toEqual(
      asShown(expectedRows(f.byStore, (k) => k)),
    );
    const byTerritory = artist.getByTestId('chart-earnings-by-territory');
    expect(
      (await breakdownRows(byTerritory)).map(([name, shown, exact]) => [name, shown, nano(exact)]),
    ).toEqual(asShown(expectedRows(f.byTerritory, (k) => TERRITORIES[k] ?? k)));
    // The charts drew (recharts arrives apart from the page) before the picture is taken.
    for (const panel of ['chart-earnings-by-month', 'chart-earnings-by-store', 'chart-earnings-by-territory'])
      await artist.getByTestId(panel).locator('svg.recharts-surface').waitFor({ timeout: 30_000 });
    await shot(artist, JOURNEY, 'analytics');
  } catch (err) {
    await shot(admin, JOURNEY, 'failed-admin').catch(() => undefined);
    await shot(artist, JOURNEY, 'failed-artist').catch(() => undefined);
    omni.explain(err);
  } finally {
    await admin.context().close();
    await artist.context().close();
  }
}, 300_000);

it('the simulated stores report back: a live release’s DSR statements and trend files are imported from the report folder', async () => {
  try {
    const artist = await verifiedSession(omni.url, newEmail('royalties-live'), PASSWORD);
    const release = await createRelease(omni.url, artist, {
      title: 'Live Wire',
      stores: ['spotify', 'deezer'],
    });
    await eventually(
      async () => {
        const r = await call(omni.url, `/api/admin/releases/${release.id}/approve`, admin.accessToken, {
          method: 'POST',
        });
        if (r.status === 200) return true;
        if (r.status !== 404) throw new Error(`approve: ${r.status} ${await r.text()}`);
        return undefined;
      },
      'the release to reach review',
      60_000,
    );
    await eventually(
      async () => {
        const { jobs } = await deliveries(omni.url, artist.accessToken, release.id);
        return jobs.length === 2 && jobs.every((j) => j.status === 'live') ? true : undefined;
      },
      'both stores Live',
      120_000,
    );
    const before = new Set((await importsList()).map((i) => i.id));
    const available = await json(
      await call(omni.url, '/api/admin/statements/store-reports', admin.accessToken),
      'GET store-reports',
    );
    expect(available).toEqual({ available: true });
    const asked = (await json(
      await call(omni.url, '/api/admin/statements/store-reports', admin.accessToken, { method: 'POST' }),
      'POST store-reports',
      202,
    )) as { files: number };
    expect(asked.files).toBeGreaterThan(0);
    // One DSR per store that has the release live, imported from the folder; nothing else is in the ledger
    // of this artist, so their earnings are exactly those statements' imported amounts.
    const imports = await eventually(
      async () => {
        const fresh = (await importsList()).filter((i) => !before.has(i.id) && i.via === 'inbox');
        return fresh.length === 2 && fresh.every((i) => i.state === 'done') ? fresh : undefined;
      },
      'the two stores’ statements imported',
      60_000,
    );
    let total = 0n;
    for (const imp of imports) {
      expect(imp.fileName).toMatch(/^DSR_/);
      expect(imp.lines.unmatched).toBe(0);
      total += reconciled(imp).imported;
    }
    expect(total).toBeGreaterThan(0n);
    const dash = await dashboard(artist);
    expect(nano(dash.totalEarningsUsd!)).toBe(total);
    // The same ask again the same day: the days are reported already, nothing new is written.
    const again = (await json(
      await call(omni.url, '/api/admin/statements/store-reports', admin.accessToken, { method: 'POST' }),
      'POST store-reports again',
      202,
    )) as { files: number };
    expect(again.files).toBe(0);
    // The trend files are the estimated feed, kept apart on /app/analytics.
    const analytics = await eventually(
      async () => {
        const a = (await json(
          await call(omni.url, '/api/analytics', artist.accessToken),
          'GET /api/analytics',
        )) as {
          trends: { totals: { streams: number }; byDay: unknown[] };
        };
        return a.trends.totals.streams > 0 ? a : undefined;
      },
      'estimated streams from the trend files',
      30_000,
    );
    expect(analytics.trends.byDay.length).toBeGreaterThan(0);
  } catch (err) {
    omni.explain(err);
  }
});
