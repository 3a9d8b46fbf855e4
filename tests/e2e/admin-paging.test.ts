// The admin tables past their first page, in a real browser at 1440 and 375 px: more pending assets than
// /admin/moderation shows at once (25) and more links than /admin/links does (50), seeded through the API.
// 'Load more' must add the rest with no row shown twice and none left out, the tab counts must stay the
// totals, and a decision on a row of the second page must leave the table whole.
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { seriousAxeViolations } from '../support/axe';
import { artifacts } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { cmsApi, contributorSignAndPut, createLink, submitContributorFile } from '../support/cms';
import { wav } from '../support/media';
import { type ApiSession, storeSession } from '../support/session';

const ADMIN_PASSWORD = 'admin-password-for-admin-paging-tests';
const suite = browserSuite('admin-paging', { env: { OMNI_ADMIN_PASSWORD: ADMIN_PASSWORD } });
jest.setTimeout(120_000);

const ASSET_PAGE = 25;
const LINK_PAGE = 50;
// Each width decides two assets: the 1440 run pages 29 of them, the 375 run 27, and exactly one page is left.
const ASSETS = ASSET_PAGE + 4;
const LINKS = LINK_PAGE + 6;

let adminSession: ApiSession;
/** Every seeded pending asset's id, and every link's id (the contributor's link included). */
let pending: string[] = [];
const links: string[] = [];

beforeAll(async () => {
  const res = await fetch(`${suite.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@omni.local', password: ADMIN_PASSWORD }),
  });
  expect(res.status).toBe(200);
  adminSession = (await res.json()) as ApiSession;
  const admin = adminSession.accessToken;
  const api = cmsApi(suite.url);

  // One link carries every contributor's song; the other links only fill the links table.
  const carrier = await createLink(api, admin, { pageSlug: 'music', maxUses: ASSETS });
  links.push(String(carrier.link.id));
  for (let i = 0; i < ASSETS; i++) {
    const title = `Song ${String(i + 1).padStart(2, '0')}`;
    const { fileKey } = await contributorSignAndPut(api, carrier.token, {
      bucket: 'audio',
      fileName: `${title}.wav`,
      contentType: 'audio/wav',
      bytes: wav(1),
    });
    const sent = await submitContributorFile(api, carrier.token, { bucket: 'audio', fileKey, title });
    expect(sent.status).toBe(201);
    pending.push(((await sent.json()) as { asset: { id: string } }).asset.id);
  }
  await seedLinks(LINK_PAGE);
}, 120_000);

/** Links until there are `count` (the contributors' one included). */
async function seedLinks(count: number) {
  const api = cmsApi(suite.url);
  while (links.length < count) {
    const { link } = await createLink(api, adminSession.accessToken, {
      pageSlug: links.length % 2 ? 'videos' : 'music',
    });
    links.push(String(link.id));
  }
}

async function adminPage(width: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await suite.browser.newContext({ viewport: { width, height: width < 768 ? 812 : 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await storeSession(page, suite.url, adminSession);
  return { context, page };
}

/** The ids of the rows on screen, in order. */
const rowIds = (page: Page, testId: string, attribute: string) =>
  page.getByTestId(testId).evaluateAll((rows, name) => rows.map((row) => row.getAttribute(name)!), attribute);

/** Waits until the table shows exactly `count` rows. */
const rowCount = (page: Page, testId: string, count: number) =>
  page.waitForFunction(([id, n]) => document.querySelectorAll(`[data-testid="${id}"]`).length === n, [
    testId,
    count,
  ] as const);

/** Waits until the tab reads `Label (n)`. */
const tab = (page: Page, label: string, count: number) =>
  page.getByRole('tab', { name: `${label} (${count})`, exact: true }).waitFor();

const sorted = (ids: string[]) => [...ids].sort();

/**
 * What a person sees at the bottom of the table, the button included: the viewport only (a full-page shot
 * of a scrolled page draws the sticky header and sidebar where the viewport was, mid-table).
 */
async function bottomShot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.screenshot({ path: join(artifacts, `admin-paging-${name}.png`) });
}

describe.each([1440, 375])('at %i px wide', (width) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await adminPage(width));
  });
  afterAll(() => context?.close());

  it('moderation: Load more adds the rest, none twice, none missing, and the counts stay the totals', async () => {
    // The 1440 run approved one and rejected one before the 375 run.
    const published = width === 1440 ? 0 : 1;
    const rejected = published;
    const expected = pending;
    await page.goto(`${suite.url}/admin/moderation`);
    await page.getByRole('heading', { name: 'Moderation Queue' }).waitFor();
    await tab(page, 'Pending', expected.length);
    await rowCount(page, 'asset-row', ASSET_PAGE);
    const first = await rowIds(page, 'asset-row', 'data-asset-id');
    await bottomShot(page, `moderation-more-${width}`);

    await page.getByRole('button', { name: 'Load more' }).click();
    await rowCount(page, 'asset-row', expected.length);
    const all = await rowIds(page, 'asset-row', 'data-asset-id');
    // The first page stays where it was; the second follows it; together they are exactly the queue.
    expect(all.slice(0, ASSET_PAGE)).toEqual(first);
    expect(new Set(all).size).toBe(all.length);
    expect(sorted(all)).toEqual(sorted(expected));
    // Newest first: the songs were sent in order, so the last one sent leads.
    expect(all[0]).toBe(expected.at(-1));
    // Everything is shown: no button asks for more.
    await page.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
    await tab(page, 'Pending', expected.length);
    await tab(page, 'Published', published);
    await tab(page, 'Rejected', rejected);
    await bottomShot(page, `moderation-all-${width}`);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A decision on a row of the second page: the table is fetched again, whole, and the counts move.
    const approved = all.at(-1)!;
    const row = page.locator(`[data-asset-id="${approved}"]`);
    const title = (await row.getByRole('cell').nth(1).textContent())!;
    await row.getByRole('button', { name: `Approve ${title}` }).click();
    await suite.toast(page, 'Asset published');
    await tab(page, 'Pending', expected.length - 1);
    await tab(page, 'Published', published + 1);
    await rowCount(page, 'asset-row', expected.length - 1);
    const afterApprove = await rowIds(page, 'asset-row', 'data-asset-id');
    expect(new Set(afterApprove).size).toBe(afterApprove.length);
    expect(sorted(afterApprove)).toEqual(sorted(expected.filter((id) => id !== approved)));

    // One from the first page, rejected: it leaves, and a row of the second page moves up, not twice.
    const rejectedId = afterApprove[3]!;
    const rejectedRow = page.locator(`[data-asset-id="${rejectedId}"]`);
    const rejectedTitle = (await rejectedRow.getByRole('cell').nth(1).textContent())!;
    await rejectedRow.getByRole('button', { name: `Reject ${rejectedTitle}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject Asset' });
    await dialog.getByLabel('Reason *').fill('Not for this page');
    await dialog.getByRole('button', { name: 'Confirm Rejection' }).click();
    await suite.toast(page, 'Asset rejected');
    await dialog.waitFor({ state: 'detached' });
    await tab(page, 'Pending', expected.length - 2);
    await tab(page, 'Rejected', rejected + 1);
    await rowCount(page, 'asset-row', expected.length - 2);
    const afterReject = await rowIds(page, 'asset-row', 'data-asset-id');
    expect(new Set(afterReject).size).toBe(afterReject.length);
    expect(sorted(afterReject)).toEqual(
      sorted(expected.filter((id) => id !== approved && id !== rejectedId)),
    );

    // Another tab and back: the counts are the totals still, and the queue is whole.
    await page.getByRole('tab', { name: /^Published/ }).click();
    await rowCount(page, 'asset-row', published + 1);
    await page.getByRole('tab', { name: /^Pending/ }).click();
    await tab(page, 'Pending', expected.length - 2);
    await rowCount(page, 'asset-row', expected.length - 2);
    expect(sorted(await rowIds(page, 'asset-row', 'data-asset-id'))).toEqual(sorted(afterReject));
    await bottomShot(page, `moderation-decided-${width}`);
    pending = expected.filter((id) => id !== approved && id !== rejectedId);

    // Opened afresh: 'Load more' is offered while more than a page waits, and not for exactly one page.
    await page.reload();
    await tab(page, 'Pending', pending.length);
    await rowCount(page, 'asset-row', Math.min(pending.length, ASSET_PAGE));
    if (pending.length > ASSET_PAGE) await page.getByRole('button', { name: 'Load more' }).waitFor();
    else expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
  });

  it('links: Load more adds the rest, none twice, none missing; revoking one on page two keeps it whole', async () => {
    await page.goto(`${suite.url}/admin/links`);
    await page.getByRole('heading', { name: 'Contributor Links' }).waitFor();
    await rowCount(page, 'link-row', LINK_PAGE);
    if (links.length === LINK_PAGE) {
      // Exactly one page: nothing more to load, so no button offers it.
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
      await seedLinks(LINKS);
      await page.reload();
      await rowCount(page, 'link-row', LINK_PAGE);
    }
    const first = await rowIds(page, 'link-row', 'data-link-id');
    await bottomShot(page, `links-more-${width}`);
    await page.getByRole('button', { name: 'Load more' }).click();
    await rowCount(page, 'link-row', links.length);
    const all = await rowIds(page, 'link-row', 'data-link-id');
    expect(all.slice(0, LINK_PAGE)).toEqual(first);
    expect(new Set(all).size).toBe(all.length);
    expect(sorted(all)).toEqual(sorted(links));
    // Newest first; the contributors' link, made first, is last.
    expect(all.at(-1)).toBe(links[0]);
    await page.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
    await bottomShot(page, `links-all-${width}`);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The first still-active link past the first page (each width revokes another).
    let revoked: string | undefined;
    for (const id of all.slice(LINK_PAGE)) {
      if ((await page.locator(`[data-link-id="${id}"]`).textContent())?.includes('active')) {
        revoked = id;
        break;
      }
    }
    expect(revoked).toBeDefined();
    const row = page.locator(`[data-link-id="${revoked}"]`);
    await row.getByRole('button', { name: /^Revoke/ }).click();
    await suite.toast(page, 'Link revoked');
    await row.getByText('revoked').waitFor();
    await rowCount(page, 'link-row', links.length);
    const after = await rowIds(page, 'link-row', 'data-link-id');
    expect(after).toEqual(all);
  });
});
