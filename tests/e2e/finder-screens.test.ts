// The Finder's scan screen in a real browser on a real platform, in the states the finder service cannot be
// made to produce on demand: a scan caught half way ("312 of 1,000 tracks"), a scan that fails, an
// unexplained 500, ok: false, a latest scan that cannot be read, a refused play-count file. Those answers
// are given at the browser's network layer (page.route); the session, the shell and the remote are real,
// and tests/e2e/finder.test.ts runs the real scan end to end.
import { readFile } from 'node:fs/promises';
import { FINDER_MESSAGES, type FinderResult, PLAY_SERVICE_TYPES, type ScanJob } from '@omni/proto/api';
import type { Page, Route } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { waitForLivePage } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';

const suite = browserSuite('finder-screens', { env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
let session: ApiSession;
let page: Page;

const ACTIVE = {
  subscribed: true,
  subscription_end: '2026-12-24T12:00:00Z',
  status: 'active',
  cancel_at_period_end: false,
};

const RESULT: FinderResult = {
  scanned: 1000,
  flagged: 2,
  estimated_value_at_risk_usd: 1234.5,
  disclaimer: FINDER_MESSAGES.disclaimer,
  checked_against: [
    { registry: 'SoundExchange', snapshot_date: '2026-10-01', live: false },
    { registry: 'PPL', snapshot_date: '2026-09-15', live: false },
  ],
  findings: [
    {
      recording_title: 'Night Drive',
      main_artist: 'Ada Stone',
      isrc: 'QZQDU2600001',
      missing_registrations: ['SoundExchange', 'PPL'],
      metadata_gaps: ['No performer line-up (featured and non-featured, with roles)'],
      recommended_actions: ['Register the recording with SoundExchange', 'Add the performer line-up'],
      value_at_risk_usd: 1234.5,
      release_id: 'rel-night',
      track_id: 'trk-night',
      // The last line is how scans before issue 21 repeated, per finding, what the results now say once.
      evidence: [
        'Not in the SoundExchange snapshot of 2026-10-01',
        'Not checked against IMPEL: no snapshot of its registrations is available.',
      ],
      value_basis: {
        formula: 'plays × rate per play × missing share × (1 − admin fee)',
        plays: 1_000_000,
        rate_per_play_usd: 0.0025,
        missing_share: 0.5,
        admin_fee: 0.05,
        years: 1,
        assumptions: ['Plays assumed non-subscription webcasting (2025 rate)'],
      },
    },
    {
      recording_title: 'Quiet Hours',
      main_artist: 'Ada Stone',
      isrc: 'XX1234',
      missing_registrations: [],
      metadata_gaps: ['ISRC XX1234 is malformed: it must be 12 characters (CC XXX YY NNNNN)'],
      recommended_actions: ['Correct the ISRC on the release page'],
      value_at_risk_usd: null,
      release_id: 'rel-quiet',
      track_id: 'trk-quiet',
      evidence: [],
      value_basis: null,
    },
  ],
};

const job = (over: Partial<ScanJob>): ScanJob => ({
  id: 'job-1',
  created_at: '2026-11-20T10:00:00Z',
  status: 'completed',
  progress: { done: 1000, total: 1000 },
  result: RESULT,
  error: '',
  ...over,
});

const json = (route: Route, status: number, body: unknown) =>
  route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
const refusal = (code: string, message: string) => ({ error: { code, message } });

beforeAll(async () => {
  session = await verifiedSession(suite.url, `finder-screens-${Date.now()}@example.com`);
});

beforeEach(async () => {
  page = await suite.newPage();
  // A subscriber, as far as this page can tell: the server-side check is finder.test.ts's and the API's.
  await page.route('**/api/billing/finder/subscription', (route) => json(route, 200, ACTIVE));
});

afterEach(async () => {
  await suite
    .shot(page, `last-${expect.getState().currentTestName?.replace(/\W+/g, '-').slice(0, 60)}`)
    .catch(() => {});
  await page?.context().close();
});

async function openFinder() {
  await storeSession(page, suite.url, session);
  await page.goto(`${suite.url}/missing-money-finder`);
  await waitForLivePage(page);
  await page.getByText('Active subscription - Next billing: Dec 24, 2026').waitFor();
}

const runScan = () => page.getByRole('button', { name: 'Run Scan' }).click();

describe('/missing-money-finder: the scan', () => {
  it("never scanned: the 'Run Catalog Scan' card and 'Run Scan', no results, no error", async () => {
    await page.route('**/api/finder/scans/latest', (route) => json(route, 200, { job: null }));
    await openFinder();
    await page.getByRole('heading', { name: 'Run Catalog Scan' }).waitFor();
    expect(await page.getByRole('button', { name: 'Run Scan' }).isEnabled()).toBe(true);
    expect(await page.getByText('Latest Scan Results').count()).toBe(0);
    expect(await suite.toasts(page)).toEqual([]);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('a scan history that cannot be read is ignored (spec §8): no toast, and scanning still works', async () => {
    await page.route('**/api/finder/scans/latest', (route) =>
      json(route, 500, refusal('internal', 'Something went wrong.')),
    );
    await openFinder();
    await page.getByRole('button', { name: 'Run Scan' }).waitFor();
    await page.waitForTimeout(500);
    expect(await suite.toasts(page)).toEqual([]);
  });

  it("'Run Scan' sends the spec's body with the bearer, shows 'Scanning...' and the server's real count, then 'Scan Complete'", async () => {
    let latest: ScanJob | null = null;
    const posted: { body: unknown; auth: string | undefined }[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/finder/scans/latest', (route) => json(route, 200, { job: latest }));
    await page.route('**/api/finder/scans', async (route) => {
      posted.push({ body: route.request().postDataJSON(), auth: route.request().headers().authorization });
      latest = job({ status: 'running', progress: { done: 312, total: 1000 }, result: null });
      await held; // the server waits for the scan (SCAN_WAIT_MS), then answers with the running job
      await json(route, 200, { ok: true, data: { job_id: 'job-1', result: null, job: latest } });
    });
    await openFinder();
    await runScan();

    const scanning = page.getByRole('button', { name: 'Scanning...' });
    await scanning.waitFor();
    expect(await scanning.isDisabled()).toBe(true);
    await page.getByText('312 of 1,000 tracks').waitFor();
    await suite.shot(page, 'scanning');
    expect(posted).toEqual([
      { body: { scan_scope: 'global', isrcs: [] }, auth: `Bearer ${session.accessToken}` },
    ]);

    // The POST answers "still running": the page keeps asking for the latest job.
    release();
    latest = job({ status: 'running', progress: { done: 700, total: 1000 }, result: null });
    await page.getByText('700 of 1,000 tracks').waitFor();
    expect(await page.getByRole('button', { name: 'Scanning...' }).isDisabled()).toBe(true);
    latest = job({});
    await suite.toast(page, 'Scan Complete', 'Found 2 potential issues');
    await page.getByRole('button', { name: 'Run Scan' }).waitFor();
    await page.getByRole('heading', { name: 'Latest Scan Results' }).waitFor();
    // Announced once, however often the page asks afterwards.
    await page.waitForTimeout(1_000);
    expect((await suite.toasts(page)).filter((t) => t.includes('Scan Complete'))).toHaveLength(1);
  });

  it('the tiles, each finding (title - main artist, ISRC, registrations, gaps, actions, value) and the disclaimer', async () => {
    await page.route('**/api/finder/scans/latest', (route) => json(route, 200, { job: job({}) }));
    await openFinder();
    const results = page.getByTestId('scan-results');
    await results.getByRole('heading', { name: 'Latest Scan Results' }).waitFor();
    expect(await results.getByTestId('scan-tile').allInnerTexts()).toEqual([
      expect.stringMatching(/Tracks Scanned\s+1,000/),
      expect.stringMatching(/Issues Found\s+2/),
      expect.stringMatching(/Est\. Value at Risk\s+\$1,234\.50/),
    ]);
    await results.getByText('SoundExchange (snapshot of 2026-10-01), PPL (snapshot of 2026-09-15)').waitFor();
    // The one registry without a snapshot is said once, at the top (§3.13).
    await results
      .getByTestId('registries-not-checked')
      .getByText('Registrations were not checked with IMPEL.')
      .waitFor();

    const [night, quiet] = await results.getByTestId('finding').all();
    if (!night || !quiet) throw new Error('Expected two findings');
    await night.getByRole('heading', { name: 'Night Drive - Ada Stone' }).waitFor();
    await night.getByText('ISRC QZQDU2600001').waitFor();
    await night.getByText('SoundExchange', { exact: true }).waitFor();
    await night.getByText('PPL', { exact: true }).waitFor();
    await night.getByText('No performer line-up (featured and non-featured, with roles)').waitFor();
    await night.getByText('Register the recording with SoundExchange').waitFor();
    expect(await night.getByTestId('finding-value').innerText()).toBe('$1,234.50');
    await night.getByText('Evidence', { exact: true }).click();
    await night.getByText('Not in the SoundExchange snapshot of 2026-10-01').waitFor();
    expect(await results.getByText(/Not checked against/).count()).toBe(0);

    // The formula and its assumptions are there on demand.
    const formula = night.getByText('plays × rate per play × missing share × (1 − admin fee)');
    expect(await formula.isVisible()).toBe(false);
    await night.getByText('How this was estimated').click();
    await formula.waitFor();
    await night.getByText('Plays assumed non-subscription webcasting (2025 rate)').waitFor();
    await night.getByText('$0.0025').waitFor();

    expect(await quiet.getByTestId('finding-value').innerText()).toBe('No plays known: no estimate');
    expect(await quiet.getByText('How this was estimated').count()).toBe(0);
    await results.getByTestId('disclaimer').getByText(FINDER_MESSAGES.disclaimer).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Each finding links to where the artist fixes it.
    await quiet.getByRole('link', { name: 'Fix on the release page' }).click();
    // No "(… tab)" in its action: the editor opens on Basic Info, at the finding's track.
    await page.waitForURL(`${suite.url}/release/rel-quiet?edit=Basic+Info&track=trk-quiet`);
  });

  it('a scan that checked no registry says so once, above the tiles, with the disclaimer to match', async () => {
    const unchecked = job({ result: { ...RESULT, checked_against: [] } });
    await page.route('**/api/finder/scans/latest', (route) => json(route, 200, { job: unchecked }));
    await openFinder();
    const results = page.getByTestId('scan-results');
    const banner = results.getByTestId('registries-not-checked');
    await banner.getByText('Registrations were not checked with SoundExchange, PPL and IMPEL.').waitFor();
    expect(await banner.count()).toBe(1);
    const [bannerBox, tileBox] = [
      await banner.boundingBox(),
      await results.getByTestId('scan-tile').first().boundingBox(),
    ];
    expect(bannerBox!.y).toBeLessThan(tileBox!.y);
    expect(await results.getByText(/Registrations checked against/).count()).toBe(0);
    await results.getByTestId('disclaimer').getByText(FINDER_MESSAGES.disclaimerNoRegistries).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await suite.shot(page, 'registries-not-checked');
  });

  it('a scan that finishes within the wait is shown from the answer itself', async () => {
    let latest: ScanJob | null = null;
    await page.route('**/api/finder/scans/latest', (route) => json(route, 200, { job: latest }));
    await page.route('**/api/finder/scans', (route) => {
      latest = job({ id: 'job-2' });
      return json(route, 200, { ok: true, data: { job_id: 'job-2', result: RESULT } });
    });
    await openFinder();
    await runScan();
    await suite.toast(page, 'Scan Complete', 'Found 2 potential issues');
    await page.getByRole('heading', { name: 'Night Drive - Ada Stone' }).waitFor();
  });

  it.each([
    {
      what: 'an unexplained 500',
      answer: { status: 500, body: refusal('internal', 'Something went wrong.') },
      says: FINDER_MESSAGES.scanUnavailable,
    },
    {
      what: 'a 502 without a body',
      answer: { status: 502, body: '' },
      says: FINDER_MESSAGES.scanUnavailable,
    },
    {
      what: 'a refusal in the server’s words (no subscription)',
      answer: { status: 403, body: refusal('subscription_required', FINDER_MESSAGES.subscriptionRequired) },
      says: FINDER_MESSAGES.subscriptionRequired,
    },
    {
      what: 'ok: false with a message',
      answer: { status: 200, body: { ok: false, error: { message: 'Your catalog is empty.' } } },
      says: 'Your catalog is empty.',
    },
    {
      what: 'ok: false without one',
      answer: { status: 200, body: { ok: false } },
      says: FINDER_MESSAGES.scanFailed,
    },
  ])("'Scan Failed' for $what", async ({ answer, says }) => {
    await page.route('**/api/finder/scans/latest', (route) => json(route, 200, { job: null }));
    await page.route('**/api/finder/scans', (route) =>
      typeof answer.body === 'string'
        ? route.fulfill({ status: answer.status, body: answer.body })
        : json(route, answer.status, answer.body),
    );
    await openFinder();
    await runScan();
    await suite.toast(page, FINDER_MESSAGES.scanFailedTitle, says);
    await page.getByRole('button', { name: 'Run Scan' }).waitFor();
  });

  it("a job that fails while the page watches it: 'Scan Failed' with its error", async () => {
    let latest: ScanJob | null = job({ status: 'running', progress: { done: 10, total: 50 }, result: null });
    await page.route('**/api/finder/scans/latest', (route) => json(route, 200, { job: latest }));
    await openFinder();
    // A scan already running when the page opens is shown running.
    await page.getByText('10 of 50 tracks').waitFor();
    latest = job({ status: 'failed', result: null, error: 'The catalog could not be read.' });
    await suite.toast(page, FINDER_MESSAGES.scanFailedTitle, 'The catalog could not be read.');
    await page.getByText('Your last scan did not finish: The catalog could not be read.').waitFor();
  });

  it("'Export CSV' fetches the export with the bearer and hands the browser the file", async () => {
    const csv = 'recording_title,main_artist,isrc\nNight Drive,Ada Stone,QZQDU2600001\n';
    const asked: (string | undefined)[] = [];
    await page.route('**/api/finder/scans/latest', (route) => json(route, 200, { job: job({}) }));
    await page.route('**/api/finder/scans/job-1/export.csv', (route) => {
      asked.push(route.request().headers().authorization);
      return route.fulfill({
        status: 200,
        contentType: 'text/csv; charset=utf-8',
        headers: { 'content-disposition': 'attachment; filename="scan.csv"' },
        body: csv,
      });
    });
    await openFinder();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('missing-money-finder-job-1.csv');
    expect(await readFile(await file.path(), 'utf8')).toBe(csv);
    expect(asked).toEqual([`Bearer ${session.accessToken}`]);
  });

  it('an export that fails says so in words, not a status code', async () => {
    await page.route('**/api/finder/scans/latest', (route) => json(route, 200, { job: job({}) }));
    await page.route('**/api/finder/scans/job-1/export.csv', (route) =>
      route.fulfill({ status: 500, body: '' }),
    );
    await openFinder();
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await suite.toast(page, 'Export Failed', FINDER_MESSAGES.scanUnavailable);
  });

  it('a play-count CSV is posted as text/csv and its count shown; a refused one names the bad line', async () => {
    await page.route('**/api/finder/scans/latest', (route) => json(route, 200, { job: null }));
    const sent: { type: string | undefined; body: string | null }[] = [];
    let answer: { status: number; body: unknown } = { status: 200, body: { rows: 3, recordings: 2 } };
    await page.route('**/api/finder/plays', (route) => {
      sent.push({ type: route.request().headers()['content-type'], body: route.request().postData() });
      return json(route, answer.status, answer.body);
    });
    await openFinder();
    const csv = 'isrc,territory,plays\nQZQDU2600001,US,1000\nQZQDU2600001,GB,500\nQZQDU2600002,US,20\n';
    await page
      .getByLabel('Play-count CSV')
      .setInputFiles({ name: 'plays.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Upload Play Counts' }).click();
    await page.getByText('Imported 3 rows for 2 recordings. Run the scan again to include them.').waitFor();
    expect(sent).toEqual([{ type: 'text/csv', body: csv }]);

    answer = { status: 400, body: refusal('invalid_argument', 'Line 3: plays must be a whole number.') };
    await page.getByRole('button', { name: 'Upload Play Counts' }).click();
    await page.getByRole('alert').getByText('Line 3: plays must be a whole number.').waitFor();

    // A refusal naming many lines shows one per line.
    const many = ['Nothing was imported: 2 lines have problems.', 'Line 2: a.', 'Line 3: b.'];
    answer = { status: 400, body: refusal('invalid_argument', many.join('\n')) };
    await page.getByRole('button', { name: 'Upload Play Counts' }).click();
    await page.getByRole('alert').getByText('Nothing was imported: 2 lines have problems.').waitFor();
    expect((await page.getByRole('alert').innerText()).split('\n')).toEqual(many);
  });

  it('the upload card lists the service_type values and what each means', async () => {
    await page.route('**/api/finder/scans/latest', (route) => json(route, 200, { job: null }));
    await openFinder();
    const types = page.getByTestId('plays-upload').getByTestId('service-types');
    await types.waitFor();
    for (const { value, meaning } of PLAY_SERVICE_TYPES) {
      await types.getByRole('term').getByText(value, { exact: true }).waitFor();
      await types.getByRole('definition').getByText(meaning, { exact: true }).waitFor();
    }
  });

  it.each([
    { name: 'desktop', viewport: { width: 1440, height: 900 } },
    { name: 'mobile', viewport: { width: 375, height: 812 } },
  ])('the results read at $viewport.width px without sideways scrolling', async ({ name, viewport }) => {
    await page.context().close();
    page = await suite.newPage({ viewport });
    await page.route('**/api/billing/finder/subscription', (route) => json(route, 200, ACTIVE));
    await page.route('**/api/finder/scans/latest', (route) => json(route, 200, { job: job({}) }));
    await openFinder();
    await page.getByRole('heading', { name: 'Night Drive - Ada Stone' }).waitFor();
    await page.getByText('How this was estimated').click();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await suite.shot(page, `results-${name}`);
  });
});
