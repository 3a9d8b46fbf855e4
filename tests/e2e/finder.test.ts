// The Missing Money Finder end to end in a real browser, on the real platform with the embedded checkout
// sandbox: a new artist puts two releases into the catalogue through the artist upload's API (one with
// the gaps a society would stop payment for, one complete) → subscribes to the Finder with a test card →
// Run Scan → the tiles and findings are what the finder service holds → play counts uploaded on the page
// turn "no estimate" into a figure with its working → Export CSV hands over the server's file.
import { readFile } from 'node:fs/promises';
import {
  FINDER_MESSAGES,
  type FinderResult,
  listNames,
  PLAY_SERVICE_TYPE_RULE,
  registriesNotChecked,
  type ScanJob,
} from '@omni/proto/api';
import type { Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { waitForLivePage } from '../support/browser';
import { browserSuite, until } from '../support/browser-suite';
import { png, wav } from '../support/media';
import { payInSandbox } from '../support/sandbox-checkout';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';

const suite = browserSuite('finder', { env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
/** Webhooks land a moment after the browser is sent back from checkout. */
const SETTLE_MS = 20_000;

const pages = suite.keepPages();
let session: ApiSession;

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const count = new Intl.NumberFormat('en-US');

async function api(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${suite.url}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${session.accessToken}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });
}

/** Sign, PUT and complete one file as the artist upload does. */
async function upload(name: string, bytes: Buffer, contentType: string, role: 'audio' | 'artwork') {
  const signRes = await api('/api/uploads/sign', {
    method: 'POST',
    body: JSON.stringify({
      bucket: 'omni-assets',
      fileName: name,
      contentType,
      size: bytes.length,
      purpose: 'artist-upload',
    }),
  });
  expect(signRes.status).toBe(200);
  const signed = (await signRes.json()) as { signedUrl: string; fileKey: string; headers: object };
  const put = await fetch(new URL(signed.signedUrl, suite.url), {
    method: 'PUT',
    headers: { ...signed.headers, authorization: `Bearer ${session.accessToken}` },
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBeLessThan(300);
  const done = await api('/api/uploads/complete', {
    method: 'POST',
    body: JSON.stringify({ bucket: 'omni-assets', fileKey: signed.fileKey, role }),
  });
  expect(done.status).toBe(200);
  return { bucket: 'omni-assets', fileKey: signed.fileKey };
}

interface Release {
  id: string;
  title: string;
  isrc: string;
}

/** A single through POST /api/releases (what the Upload & Queue Delivery button sends). */
async function release(fields: {
  artistName: string;
  title: string;
  credits?: Record<string, unknown>;
  legal?: Record<string, unknown>;
}): Promise<Release> {
  const res = await api('/api/releases', {
    method: 'POST',
    body: JSON.stringify({
      artistName: fields.artistName,
      releaseTitle: fields.title,
      trackTitle: fields.title,
      releaseType: 'single',
      audio: await upload('take.wav', wav(1, { tone: true }), 'audio/wav', 'audio'),
      artwork: await upload('cover.png', png(3000, 3000), 'image/png', 'artwork'),
      credits: fields.credits ?? {},
      legal: fields.legal ?? {},
      stores: ['spotify'],
    }),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { release: { id: string; tracks: { isrc: string }[] } };
  return { id: body.release.id, title: fields.title, isrc: body.release.tracks[0]?.isrc ?? '' };
}

/** The latest job as the finder service holds it (what the screen must show). */
async function latestJob(): Promise<ScanJob> {
  const res = await api('/api/finder/scans/latest');
  expect(res.status).toBe(200);
  const { job } = (await res.json()) as { job: ScanJob | null };
  if (!job?.result) throw new Error(`Expected a finished scan; saw ${JSON.stringify(job)}`);
  return job;
}

/** A tile's text: its title, then its figure. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const tile = (title: string, value: string) =>
  expect.stringMatching(new RegExp(`^${literal(title)}\\s+${literal(value)}$`));

/** Checks the screen's 'Latest Scan Results' against the server's result, tile by tile, finding by finding. */
async function expectResultsShown(page: Page, result: FinderResult) {
  const results = page.getByTestId('scan-results');
  await results.getByRole('heading', { name: 'Latest Scan Results' }).waitFor();
  expect(await results.getByTestId('scan-tile').allInnerTexts()).toEqual([
    tile('Tracks Scanned', count.format(result.scanned)),
    tile('Issues Found', count.format(result.flagged)),
    tile('Est. Value at Risk', dollars.format(result.estimated_value_at_risk_usd)),
  ]);
  const shown = results.getByTestId('finding');
  expect(await shown.count()).toBe(result.findings.length);
  for (const [index, finding] of result.findings.entries()) {
    const item = shown.nth(index);
    await item
      .getByRole('heading', { name: `${finding.recording_title} - ${finding.main_artist}` })
      .waitFor();
    await item.getByText(`ISRC ${finding.isrc}`).waitFor();
    for (const gap of finding.metadata_gaps) await item.getByText(gap, { exact: true }).waitFor();
    for (const action of finding.recommended_actions) await item.getByText(action, { exact: true }).waitFor();
    for (const registry of finding.missing_registrations) {
      await item.getByText(registry, { exact: true }).first().waitFor();
    }
    expect(await item.getByTestId('finding-value').innerText()).toBe(
      finding.value_at_risk_usd === null
        ? 'No plays known: no estimate'
        : dollars.format(finding.value_at_risk_usd),
    );
  }
  await results
    .getByTestId('disclaimer')
    .getByText(result.disclaimer || FINDER_MESSAGES.disclaimer)
    .waitFor();
  // Registries not checked are said once, at the top of the results, never in a finding (§3.13).
  const notChecked = registriesNotChecked(result);
  const banner = results.getByTestId('registries-not-checked');
  if (notChecked.length === 0) expect(await banner.count()).toBe(0);
  else {
    await banner.getByText(`Registrations were not checked with ${listNames(notChecked)}.`).waitFor();
    const [bannerBox, tilesBox] = [
      await banner.boundingBox(),
      await results.getByTestId('scan-tile').first().boundingBox(),
    ];
    expect(bannerBox!.y).toBeLessThan(tilesBox!.y);
  }
  expect(result.findings.flatMap((f) => f.evidence).filter((e) => /not checked/i.test(e))).toEqual([]);
}

it('subscribe → Run Scan → the tiles and findings the service found → play counts give an estimate → Export CSV', async () => {
  session = await verifiedSession(suite.url, `finder-${Date.now()}@example.com`);
  // One release with the gaps that stop payment (no P line, no performer line-up, a writer without an
  // IPI), one as complete as the artist upload lets it be.
  const gappy = await release({
    artistName: 'Ada Stone',
    title: 'Night Drive',
    credits: { writers: ['Ada Stone'] },
  });
  const complete = await release({
    artistName: 'Ada Stone',
    title: 'Quiet Hours',
    credits: {
      writers: ['Ada Stone'],
      musicians: ['Ada Stone (vocals)', 'Ben Ode (bass)'],
      producers: ['Ben Ode'],
    },
    legal: {
      copyrightLine: '℗ 2026 Ada Stone Records',
      publishingLine: '© 2026 Ada Stone Music',
      pro: 'PRS',
    },
  });

  // A free account cannot scan: the server says so, not only the page.
  const refused = await api('/api/finder/scans', {
    method: 'POST',
    body: JSON.stringify({ scan_scope: 'global' }),
  });
  expect(refused.status).toBe(403);

  const finder = await suite.newPage({ viewport: { width: 1440, height: 900 } });
  pages.push(finder);
  await storeSession(finder, suite.url, session);
  await finder.goto(`${suite.url}/missing-money-finder`);
  await waitForLivePage(finder);
  // The card sells what a scan does; registration checks, which no scan runs yet, are said to be coming.
  const included = finder.getByTestId('finder-included');
  await included.waitFor();
  expect(await included.innerText()).not.toMatch(/SoundExchange|PPL|IMPEL|registration/i);
  await finder
    .getByTestId('finder-coming')
    .getByText(/SoundExchange, PPL and IMPEL registrations/)
    .waitFor();
  const popup = finder.waitForEvent('popup');
  await finder.getByRole('button', { name: 'Subscribe for $99/month' }).click();
  const checkout = await popup;
  pages.push(checkout);
  await payInSandbox(checkout);
  await checkout.waitForURL(/\/missing-money-finder\?checkout=success/);
  await checkout.getByText(/^Active subscription - Next billing: /).waitFor({ timeout: SETTLE_MS });
  const page = checkout;
  await page.setViewportSize({ width: 1440, height: 900 });

  // Run Scan: 'Scanning...' while it runs, then 'Scan Complete' with the server's count.
  await page.getByRole('button', { name: 'Run Scan' }).click();
  await suite.toast(page, 'Scan Complete');
  const first = await latestJob();
  const result = first.result as FinderResult;
  await suite.toast(page, 'Scan Complete', `Found ${count.format(result.flagged)} potential issues`);
  expect(result.scanned).toBe(2);
  expect(result.flagged).toBeGreaterThan(0);
  expect(result.findings.map((f) => f.isrc)).toContain(gappy.isrc);
  await expectResultsShown(page, result);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await suite.shot(page, 'results-1440');

  // The card lists the service_type values; a file with another one is refused with them and their meaning.
  const upload = page.getByTestId('plays-upload');
  await upload.getByTestId('service-types').getByText('free, ad-supported internet radio').waitFor();
  await upload.getByTestId('service-types').getByText('paid subscription internet radio').waitFor();
  await page.getByLabel('Play-count CSV').setInputFiles({
    name: 'plays.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`isrc,territory,plays,service_type\n${gappy.isrc},US,250000,non_interactive\n`),
  });
  await page.getByRole('button', { name: 'Upload Play Counts' }).click();
  const refusedFile = upload.getByRole('alert');
  await refusedFile.getByText(PLAY_SERVICE_TYPE_RULE).waitFor();
  await refusedFile
    .getByText('Line 2: service_type "non_interactive" is not one of non_subscription, subscription.')
    .waitFor();

  // Play counts for the flagged recording, uploaded on the page; the next scan estimates its value.
  const csv = `isrc,territory,plays\n${gappy.isrc},US,250000\n${gappy.isrc},GB,40000\n`;
  await page
    .getByLabel('Play-count CSV')
    .setInputFiles({ name: 'plays.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Upload Play Counts' }).click();
  await page.getByText('Imported 2 rows for 1 recording. Run the scan again to include them.').waitFor();
  await page.getByRole('button', { name: 'Run Scan' }).click();
  const second = await until(
    () => latestJob().catch(() => first),
    (job) => job.id !== first.id && job.status === 'completed',
    'a second finished scan',
    SETTLE_MS,
  );
  const estimated = second.result?.findings.find((f) => f.isrc === gappy.isrc);
  expect(estimated?.value_at_risk_usd).toEqual(expect.any(Number));
  const item = page.getByTestId('finding').filter({ hasText: `ISRC ${gappy.isrc}` });
  await item.getByText(dollars.format(estimated?.value_at_risk_usd ?? 0), { exact: true }).waitFor();
  await expectResultsShown(page, second.result as FinderResult);
  await item.getByText('How this was estimated').click();
  await item.getByText(estimated?.value_basis?.formula ?? 'no formula').waitFor();

  // Export CSV: the file the browser is handed is the server's export.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  const exported = await readFile(await file.path(), 'utf8');
  const served = await (await api(`/api/finder/scans/${second.id}/export.csv`)).text();
  expect(exported).toBe(served);
  expect(exported).toContain(gappy.isrc);

  // At 375 px the results still read without sideways scrolling.
  await page.setViewportSize({ width: 375, height: 812 });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBe(0);
  await suite.shot(page, 'results-375');

  // Each finding links to the release page's editor, on the tab its first action names, where the artist
  // fixes it.
  const tab = /\(([^()]+) tab\)/.exec(
    (await item
      .getByText(/ tab\)/)
      .first()
      .textContent()) ?? '',
  )?.[1];
  await item.getByRole('link', { name: 'Fix on the release page' }).click();
  await page.waitForURL((url) => url.pathname === `/release/${gappy.id}` && url.searchParams.has('edit'));
  await page.getByRole('heading', { name: gappy.title }).waitFor();
  const editor = page.getByTestId('release-editor');
  await editor.waitFor();
  // The tracks' fields are on the editor's Basic Info tab.
  expect(tab).toBeTruthy();
  const opened = tab === 'Tracks' ? 'Basic Info' : tab!;
  expect(await editor.getByRole('tab', { name: opened }).getAttribute('aria-selected')).toBe('true');
  expect(complete.isrc).not.toBe(gappy.isrc);
});
