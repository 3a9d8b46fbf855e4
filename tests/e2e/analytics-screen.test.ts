// /app/analytics and the /app figures in a real browser on a real platform. The session, the shell, the
// dashboard remote and the page's code are real; the answers of GET /api/analytics (and, for the stat
// cards' statement months, of GET /api/dashboard) are CANNED at the browser's network layer
// (page.route): they parse with the API contract (proto/api/royalties.ts), so the page is held to the
// contract, not to whatever royalties happens to have imported. The journey through a real statement
// import is the royalties suite's to add.
import { readFile } from 'node:fs/promises';
import { type Analytics, analytics as analyticsSchema } from '@omni/proto/api';
import type { Page, Request, Route } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { browserSuite, until } from '../support/browser-suite';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';

const suite = browserSuite('analytics-screen', { env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
const pages = suite.keepPages();
let session: ApiSession;

const PHONE = { width: 390, height: 844 };

const days = Array.from({ length: 30 }, (_, i) => ({
  date: `2026-11-${String(i + 1).padStart(2, '0')}`,
  streams: 4000 + i * 150 + (i % 7) * 300,
}));
const dayTotal = days.reduce((sum, d) => sum + d.streams, 0);

/** Three sale months of statements and a month of trend estimates; every total adds up to the nano-dollar. */
const CANNED: Analytics = {
  earnings: {
    source: 'Store statements (DDEX DSR and CSV imports)',
    refreshedAt: '2026-12-04T15:00:00Z',
    currency: 'USD',
    totals: { streams: 564821, quantity: 567200, amount: '2257.191346912' },
    byMonth: [
      { month: '2026-08', streams: 120000, quantity: 121000, amount: '410.123456789' },
      { month: '2026-09', streams: 180500, quantity: 181200, amount: '612.500000000' },
      { month: '2026-10', streams: 264321, quantity: 265000, amount: '1234.567890123' },
    ],
    byStore: [
      { key: 'spotify', label: 'Spotify', streams: 400000, quantity: 400000, amount: '1480.345678901' },
      { key: 'apple', label: 'Apple Music', streams: 150000, quantity: 152000, amount: '702.005' },
      { key: 'youtube', label: 'YouTube Music', streams: 14821, quantity: 15200, amount: '74.840668011' },
    ],
    byTerritory: [
      { key: 'US', label: 'United States', streams: 300000, quantity: 301000, amount: '1300.000000000' },
      { key: 'GB', label: 'United Kingdom', streams: 150000, quantity: 151000, amount: '600.191346912' },
      { key: 'DE', label: 'Germany', streams: 114821, quantity: 115200, amount: '357.004' },
      // A month of returns: a small negative line, shown as $0.00 and exported as it is.
      { key: 'FR', label: 'France', streams: 0, quantity: 0, amount: '-0.004' },
    ],
    byRelease: [
      { key: 'rel-night', label: 'Night Drive', streams: 500000, quantity: 502000, amount: '2000.191346912' },
      { key: 'rel-quiet', label: 'Quiet Hours', streams: 64821, quantity: 65200, amount: '257.000000000' },
    ],
    byTrack: [
      { key: 'trk-night', label: 'Night Drive', streams: 380000, quantity: 381000, amount: '1500.191346912' },
      { key: 'trk-neon', label: 'Neon Rain', streams: 120000, quantity: 121000, amount: '500.000000000' },
      { key: 'trk-plus', label: '+1 (Remix)', streams: 64821, quantity: 65200, amount: '257.000000000' },
    ],
  },
  trends: {
    source: 'Store trend reports (sandbox simulator)',
    refreshedAt: '2026-12-01T06:30:00Z',
    timeZone: 'UTC',
    totals: { streams: dayTotal },
    byDay: days,
    byStore: [
      { key: 'spotify', label: 'Spotify', streams: Math.round(dayTotal * 0.7) },
      { key: 'apple', label: 'Apple Music', streams: dayTotal - Math.round(dayTotal * 0.7) },
    ],
    byTerritory: [
      { key: 'US', label: 'United States', streams: Math.round(dayTotal * 0.6) },
      { key: 'BR', label: 'Brazil', streams: dayTotal - Math.round(dayTotal * 0.6) },
    ],
  },
  filters: {
    months: ['2026-08', '2026-09', '2026-10'],
    stores: [
      { key: 'spotify', label: 'Spotify' },
      { key: 'apple', label: 'Apple Music' },
      { key: 'youtube', label: 'YouTube Music' },
    ],
    territories: [
      { key: 'US', label: 'United States' },
      { key: 'GB', label: 'United Kingdom' },
      { key: 'DE', label: 'Germany' },
      { key: 'FR', label: 'France' },
    ],
    releases: [
      { key: 'rel-night', label: 'Night Drive' },
      { key: 'rel-quiet', label: 'Quiet Hours' },
    ],
    tracks: [
      { key: 'trk-night', label: 'Night Drive', release: 'rel-night' },
      { key: 'trk-neon', label: 'Neon Rain', release: 'rel-night' },
      { key: 'trk-plus', label: '+1 (Remix)', release: 'rel-quiet' },
    ],
  },
};

/** An artist with no statement and no trend report yet. */
const NOTHING_YET: Analytics = {
  earnings: {
    ...CANNED.earnings,
    refreshedAt: null,
    totals: { streams: 0, quantity: 0, amount: '0' },
    byMonth: [],
    byStore: [],
    byTerritory: [],
    byRelease: [],
    byTrack: [],
  },
  trends: {
    ...CANNED.trends,
    refreshedAt: null,
    totals: { streams: 0 },
    byDay: [],
    byStore: [],
    byTerritory: [],
  },
  filters: { months: [], stores: [], territories: [], releases: [], tracks: [] },
};

const json = (route: Route, status: number, body: unknown) =>
  route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });

/** Answers GET /api/analytics with `answer` and records each request's query and bearer. */
async function cannedAnalytics(page: Page, answer: () => { status: number; body: unknown }) {
  const seen: { query: URLSearchParams; auth: string | undefined }[] = [];
  await page.route('**/api/analytics*', (route) => {
    const request: Request = route.request();
    seen.push({ query: new URL(request.url()).searchParams, auth: request.headers().authorization });
    const { status, body } = answer();
    return json(route, status, body);
  });
  return seen;
}

async function newPage(viewport?: { width: number; height: number }) {
  const page = await suite.newPage(viewport ? { viewport } : undefined);
  pages.push(page);
  await storeSession(page, suite.url, session);
  return page;
}

const shotTo = (page: Page, name: string) => suite.shot(page, name);

beforeAll(async () => {
  session = await verifiedSession(suite.url, `analytics-${Date.now()}@example.com`);
  // The canned answers are the contract's: a change there fails here first, not in a person's browser.
  expect(() => analyticsSchema.parse(CANNED)).not.toThrow();
  expect(() => analyticsSchema.parse(NOTHING_YET)).not.toThrow();
});

describe('/app', () => {
  it('View Analytics leads to /app/analytics; Manage Splits to /app/splits', async () => {
    const page = await newPage();
    await page.goto(`${suite.url}/app`);
    const actions = page.getByRole('region', { name: 'Quick actions' });
    await actions.getByRole('heading', { name: 'Upload Release' }).waitFor();
    const titles = await actions.getByRole('heading', { level: 3 }).allInnerTexts();
    expect(titles.map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      'Upload Release',
      'View Analytics',
      'Manage Splits',
    ]);
    await page.getByRole('link', { name: 'Manage Splits' }).click();
    await page.waitForURL(/\/app\/splits$/);
    await page.getByRole('heading', { level: 1, name: 'Splits' }).waitFor();
    await page.goBack();
    await cannedAnalytics(page, () => ({ status: 200, body: CANNED }));
    await page.getByRole('link', { name: 'View Analytics' }).click();
    await page.waitForURL(/\/app\/analytics$/);
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
  });

  it("the stat cards show the statements' figures and months (canned /api/dashboard)", async () => {
    const page = await newPage();
    let earnings: Record<string, unknown> = {
      monthlyStreams: 264321,
      streamsMonth: { saleMonth: '2026-10', reportedMonth: '2026-12' },
      totalEarningsUsd: '2257.191346912',
      earningsThrough: { saleMonth: '2026-10', reportedMonth: '2026-12' },
    };
    await page.route('**/api/dashboard', async (route) => {
      const real = (await (await route.fetch()).json()) as Record<string, unknown>;
      await json(route, 200, { ...real, ...earnings });
    });
    await page.goto(`${suite.url}/app`);
    const streams = page.getByTestId('stat-card').filter({ hasText: 'Monthly Streams' });
    const total = page.getByTestId('stat-card').filter({ hasText: 'Total Earnings' });
    await streams.getByText('264,321', { exact: true }).waitFor();
    await streams.getByText('Sale month Oct 2026 · reported Dec 2026', { exact: true }).waitFor();
    await total.getByText('$2,257.19', { exact: true }).waitFor();
    await total.getByText('Through sale month Oct 2026 · reported Dec 2026', { exact: true }).waitFor();
    await shotTo(page, 'app-with-statements');

    earnings = { monthlyStreams: 0, streamsMonth: null, totalEarningsUsd: '0', earningsThrough: null };
    await page.reload();
    await total.getByText('$0.00', { exact: true }).waitFor();
    expect(await streams.getByText('No statements yet').count()).toBe(1);
    expect(await total.getByText('No statements yet').count()).toBe(1);
  });

  it('a server without the earnings fields still shows its numbers, with no months line', async () => {
    const page = await newPage();
    await page.route('**/api/dashboard', async (route) => {
      const real = (await (await route.fetch()).json()) as Record<string, unknown>;
      const { streamsMonth, totalEarningsUsd, earningsThrough, ...old } = real;
      await json(route, 200, { ...old, monthlyStreams: 1200, totalEarnings: 12.5 });
    });
    await page.goto(`${suite.url}/app`);
    const total = page.getByTestId('stat-card').filter({ hasText: 'Total Earnings' });
    await total.getByText('$12.50', { exact: true }).waitFor();
    await page.getByTestId('stat-card').filter({ hasText: 'Monthly Streams' }).getByText('1,200').waitFor();
    expect(await page.getByTestId('stat-note').count()).toBe(0);
  });
});

describe('/app/analytics (canned GET /api/analytics)', () => {
  it('shows both feeds apart, labelled, with source, refresh time, tables and exact CSVs', async () => {
    const page = await newPage();
    const seen = await cannedAnalytics(page, () => ({ status: 200, body: CANNED }));
    await page.goto(`${suite.url}/app/analytics`);
    await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();

    const final = page.getByTestId('final-earnings');
    const estimated = page.getByTestId('estimated-streams');
    await final.getByRole('heading', { level: 2, name: 'Final earnings' }).waitFor();
    await estimated.getByRole('heading', { level: 2, name: 'Estimated daily streams' }).waitFor();
    await estimated
      .getByText('estimates from store trend reports; final figures come with statements', { exact: false })
      .waitFor();
    expect(seen[0]?.auth).toMatch(/^Bearer /);
    expect(seen[0]?.query.toString()).toBe('');

    // Every chart of each feed says which feed, its source, when it was refreshed, and (days) UTC.
    const finalCharts = final.locator('[data-feed="final"]');
    const estimatedCharts = estimated.locator('[data-feed="estimated"]');
    expect(await finalCharts.count()).toBe(5); // month, store, territory, release, track
    expect(await estimatedCharts.count()).toBe(3); // day, store, territory
    for (const source of await finalCharts.getByTestId('chart-source').allInnerTexts()) {
      expect(source).toBe(
        'Final, from statements · Source: Store statements (DDEX DSR and CSV imports) · Last refreshed: Dec 4, 2026, 3:00 PM UTC · USD',
      );
    }
    for (const source of await estimatedCharts.getByTestId('chart-source').allInnerTexts()) {
      expect(source).toBe(
        'Estimated, from trend reports · Source: Store trend reports (sandbox simulator) · Last refreshed: Dec 1, 2026, 6:30 AM UTC · Days in UTC',
      );
    }
    expect(await finalCharts.getByText('Final', { exact: true }).count()).toBe(5);
    expect(await estimatedCharts.getByText('Estimated', { exact: true }).count()).toBe(3);

    // The month table: one row per sale month, with its figures as the API sent them, to the cent.
    const byMonth = page
      .getByTestId('chart-earnings-by-month')
      .getByRole('table', { name: 'Earnings by sale month' });
    const monthRows = await byMonth.locator('tbody tr').allInnerTexts();
    expect(monthRows.map((r) => r.split('\t').map((c) => c.trim()))).toEqual([
      ['Aug 2026', '120,000', '121,000', '$410.12'],
      ['Sep 2026', '180,500', '181,200', '$612.50'],
      ['Oct 2026', '264,321', '265,000', '$1,234.57'],
    ]);
    await final.getByText('$2,257.19', { exact: true }).first().waitFor();

    // A store row: the amount shown to the cent, the exact string a hover (and the CSV) away.
    const byStore = page.getByTestId('chart-earnings-by-store');
    const spotify = byStore.getByRole('row').filter({ hasText: 'Spotify' });
    expect((await spotify.innerText()).split('\t').map((c) => c.trim())).toEqual([
      'Spotify',
      '400,000',
      '400,000',
      '$1,480.35',
    ]);
    expect(await spotify.locator('[data-amount]').getAttribute('data-amount')).toBe('1480.345678901');
    // Half a cent rounds away from zero; a small refund is $0.00, not "-$0.00".
    await byStore.getByRole('row').filter({ hasText: 'Apple Music' }).getByText('$702.01').waitFor();
    await page
      .getByTestId('chart-earnings-by-territory')
      .getByRole('row')
      .filter({ hasText: 'France' })
      .getByText('$0.00', { exact: true })
      .waitFor();

    // The store table's CSV: every column, the exact decimal strings, built in the browser.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      byStore.getByRole('link', { name: 'Download Earnings by store as CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('omni-earnings-by-store.csv');
    const csv = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '');
    expect(csv).toBe(
      [
        'Store,Code,Streams,Units,Earnings (USD)',
        'Spotify,spotify,400000,400000,1480.345678901',
        'Apple Music,apple,150000,152000,702.005',
        'YouTube Music,youtube,14821,15200,74.840668011',
        '',
      ].join('\r\n'),
    );
    // A name a spreadsheet would run as a formula is defused; amounts stay exact (the refund too).
    const [trackCsv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download Earnings by track as CSV' }).click(),
    ]);
    expect(await readFile(await trackCsv.path(), 'utf8')).toContain(
      "'+1 (Remix),trk-plus,64821,65200,257.000000000",
    );
    const [territoryCsv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download Earnings by territory as CSV' }).click(),
    ]);
    expect(await readFile(await territoryCsv.path(), 'utf8')).toContain('France,FR,0,0,-0.004\r\n');
    const [dayCsv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /Download Estimated streams per day/ }).click(),
    ]);
    const dayLines = (await readFile(await dayCsv.path(), 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(dayLines[0]).toBe('Day (UTC),Estimated streams');
    expect(dayLines).toHaveLength(31);
    expect(dayLines).toContain(`2026-11-30,${days[29]?.streams}`);

    // The estimates: per day (UTC), newest first in the table.
    const dayTable = page.getByTestId('chart-streams-by-day').locator('tbody tr');
    expect((await dayTable.first().innerText()).split('\t')[0]?.trim()).toBe('2026-11-30');
    await estimated.getByText(dayTotal.toLocaleString('en-US'), { exact: true }).waitFor();

    // The charts drew (recharts loads apart from the page).
    await page.getByTestId('chart-earnings-by-month').locator('svg.recharts-surface').waitFor();
    await page.getByTestId('chart-streams-by-day').locator('svg.recharts-surface').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shotTo(page, 'desktop');
  });

  it('filters ask the server with the chosen month range, store, release and track, and stay in the address', async () => {
    const page = await newPage();
    const seen = await cannedAnalytics(page, () => ({ status: 200, body: CANNED }));
    await page.goto(`${suite.url}/app/analytics`);
    await page.getByTestId('chart-earnings-by-store').waitFor();
    const filters = page.getByRole('form', { name: 'Filters' });

    await filters.getByLabel('Store').selectOption('spotify');
    await until(
      async () => seen.at(-1)?.query.toString(),
      (q) => q === 'store=spotify',
      'a request filtered by store',
    );
    await filters.getByLabel('From month').selectOption('2026-09');
    await filters.getByLabel('Release').selectOption('rel-quiet');
    // Only the chosen release's tracks are offered.
    await until(
      () => filters.getByLabel('Track').locator('option').allInnerTexts(),
      (options) => options.join('|') === 'All tracks|+1 (Remix)',
      "only Quiet Hours' track",
    );
    await filters.getByLabel('Track').selectOption('trk-plus');
    await until(
      async () => seen.at(-1)?.query.toString(),
      (q) => q === 'from=2026-09&store=spotify&release=rel-quiet&track=trk-plus',
      'a request with every filter',
    );
    expect(new URL(page.url()).search).toBe('?from=2026-09&store=spotify&release=rel-quiet&track=trk-plus');

    // A bookmarked view opens with its filters chosen; Clear filters lets them all go.
    await page.reload();
    expect(await filters.getByLabel('Store').inputValue()).toBe('spotify');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await until(
      async () => seen.at(-1)?.query.toString(),
      (q) => q === '',
      'an unfiltered request',
    );
    expect(new URL(page.url()).search).toBe('');
  });

  it('with no statements yet it says what will appear and when; "never" refreshed', async () => {
    const page = await newPage();
    await cannedAnalytics(page, () => ({ status: 200, body: NOTHING_YET }));
    await page.goto(`${suite.url}/app/analytics`);
    const final = page.getByTestId('final-earnings');
    await final.getByText('No statements yet', { exact: true }).waitFor();
    await final.getByText('about 1–3 months after the sale month', { exact: false }).waitFor();
    await final.getByText('Last refreshed: never.').waitFor();
    const estimated = page.getByTestId('estimated-streams');
    await estimated.getByText('No daily estimates yet').waitFor();
    await estimated.getByText('Last refreshed: never.').waitFor();
    expect(await page.locator('svg.recharts-surface').count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shotTo(page, 'empty');
  });

  it('a failed answer says so with a way to try again; a contract mismatch is not shown as figures', async () => {
    const page = await newPage();
    let answer: { status: number; body: unknown } = {
      status: 500,
      body: { error: { code: 'internal', message: 'Something went wrong.' } },
    };
    await cannedAnalytics(page, () => answer);
    await page.goto(`${suite.url}/app/analytics`);
    const alert = page.getByRole('alert').filter({ hasText: 'Your analytics could not be loaded.' });
    await alert.waitFor({ timeout: 15_000 });
    await shotTo(page, 'error');

    answer = { status: 200, body: { ...CANNED, earnings: { ...CANNED.earnings, totals: { amount: 12.5 } } } };
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your analytics could not be loaded.' }).waitFor();
    expect(await page.getByTestId('final-earnings').count()).toBe(0);

    answer = { status: 200, body: CANNED };
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('chart-earnings-by-month').waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'could not be loaded' }).count()).toBe(0);
  });

  it('stacks to one column on a 390 px phone, nothing wider than the screen', async () => {
    const page = await newPage(PHONE);
    await cannedAnalytics(page, () => ({ status: 200, body: CANNED }));
    await page.goto(`${suite.url}/app/analytics`);
    await page.getByTestId('chart-earnings-by-month').locator('svg.recharts-surface').waitFor();
    await page.getByTestId('chart-streams-by-day').locator('svg.recharts-surface').waitFor();
    await shotTo(page, 'phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // Every table fits too (the units column is left to the CSV on a phone), none scrolls sideways.
    const tables = await page.evaluate(() =>
      [...document.querySelectorAll('main table')].map((t) => {
        const box = t.parentElement as HTMLElement;
        return box.scrollWidth - box.clientWidth;
      }),
    );
    expect(tables.length).toBe(8);
    expect(tables.filter((overflow) => overflow > 0)).toEqual([]);
    // Chart above its table, not beside it.
    const panel = page.getByTestId('chart-earnings-by-store');
    const chart = await panel.locator('svg.recharts-surface').boundingBox();
    const table = await panel.getByRole('table').boundingBox();
    expect(chart && table && table.y >= chart.y + chart.height).toBe(true);
  });
});
