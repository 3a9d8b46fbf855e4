// The Missing Money Finder on Omni started as `npm start` starts it: an artist with a release (made through
// the HTTP API, as the upload page makes it, with the gaps a society stops payment for) subscribes to the
// Finder for $99/month through the embedded checkout sandbox, runs a scan on /missing-money-finder, and the
// page shows the findings the finder service holds for that release.
import type { FinderResult, ScanJob } from '@omni/proto/api';
import type { Browser } from 'playwright-core';
import { launchBrowser, waitForLivePage } from '../support/browser';
import { payInSandbox, SANDBOX_CARDS } from '../support/sandbox-checkout';
import { verifiedSession } from '../support/session';
import { call, createRelease } from './support/api';
import { type Omni, startOmni } from './support/omni-process';
import { newEmail, PASSWORD, personPage, shot, signIn, toast } from './support/people';

const JOURNEY = 'finder';
let omni: Omni;
let browser: Browser;

beforeAll(async () => {
  omni = await startOmni({ name: JOURNEY });
  browser = await launchBrowser();
}, 420_000);

afterAll(async () => {
  await browser?.close();
  await omni?.stop();
}, 120_000);

it('subscribe for $99/month in the sandbox → Run Scan over the artist’s release → its findings on the page', async () => {
  const started = Date.now();
  const email = newEmail('finder');
  const session = await verifiedSession(omni.url, email, PASSWORD);
  // No P line, no performers, a writer without an IPI: what the Finder exists to find.
  const release = await createRelease(omni.url, session, {
    title: 'Night Drive',
    stores: ['spotify'],
    credits: { writers: ['Ada Stone'] },
  });
  const page = await personPage(browser, { viewport: { width: 1440, height: 900 } });
  try {
    await signIn(page, omni.url, email, PASSWORD);
    await page.goto(`${omni.url}/missing-money-finder`);
    await waitForLivePage(page);
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Subscribe for $99/month' }).click();
    const checkout = await popup;
    await checkout.getByRole('button', { name: 'Pay $99' }).waitFor({ timeout: 30_000 });
    await payInSandbox(checkout, SANDBOX_CARDS.succeeds);
    await checkout.waitForURL(/\/missing-money-finder\?checkout=success/, { timeout: 30_000 });
    const finder = checkout;
    await finder.setViewportSize({ width: 1440, height: 900 });
    await finder.getByText(/^Active subscription - Next billing: /).waitFor({ timeout: 60_000 });
    await shot(finder, JOURNEY, 'subscribed');

    await finder.getByRole('button', { name: 'Run Scan' }).click();
    await toast(finder, 'Scan Complete', undefined, 120_000);
    const latest = await call(omni.url, '/api/finder/scans/latest', session.accessToken);
    expect(latest.status).toBe(200);
    const { job } = (await latest.json()) as { job: ScanJob | null };
    const result = job?.result as FinderResult;
    expect(result.scanned).toBe(1);
    const finding = result.findings.find((f) => f.isrc === release.isrc);
    expect(finding).toBeDefined();
    expect(finding?.metadata_gaps.length).toBeGreaterThan(0);

    // The page shows what the service found: the release's finding, its gaps and what to do.
    const results = finder.getByTestId('scan-results');
    await results.getByRole('heading', { name: 'Latest Scan Results' }).waitFor();
    expect(await results.getByTestId('finding').count()).toBe(result.findings.length);
    const shown = results.getByTestId('finding').filter({ hasText: `ISRC ${release.isrc}` });
    await shown.getByRole('heading', { name: 'Night Drive - Journey Artist' }).waitFor();
    for (const gap of finding?.metadata_gaps ?? []) await shown.getByText(gap, { exact: true }).waitFor();
    for (const action of finding?.recommended_actions ?? [])
      await shown.getByText(action, { exact: true }).waitFor();
    await shot(finder, JOURNEY, 'findings');
    process.stdout.write(`finder journey: ${Math.round((Date.now() - started) / 1000)} s\n`);
  } catch (err) {
    await shot(page, JOURNEY, 'failed').catch(() => undefined);
    omni.explain(err);
  } finally {
    await page.context().close();
  }
}, 600_000);
