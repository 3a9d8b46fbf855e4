// /admin/releases past its first page (50), in a real browser at 1440 and 375 px: more releases waiting
// for review than one page holds, created through the API (storage answered by the release suites'
// stand-in, so no bytes are uploaded). 'Load more' must add the rest with none twice and none missing, and
// a rejection of a release on the second page must leave the queue whole.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { fakeStorage, releaseBody } from '../integration/releases.fixtures';
import { artifacts } from '../support/browser';
import { browserSuite } from '../support/browser-suite';
import { type ApiSession, storeSession } from '../support/session';
import { signTestToken } from '../support/tokens';

const ADMIN_PASSWORD = 'admin-password-for-releases-paging-tests';
const suite = browserSuite('admin-releases-paging', {
  env: { OMNI_ADMIN_PASSWORD: ADMIN_PASSWORD },
  modules: { storage: fakeStorage },
});
jest.setTimeout(120_000);

const PAGE = 50;
const RELEASES = PAGE + 5;

let adminSession: ApiSession;
/** The ids of the releases waiting for review. */
let waiting: string[] = [];

async function inReview(token: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ status: 'in_review', ...(cursor ? { cursor } : {}) });
    const res = await fetch(`${suite.url}/api/admin/releases?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { releaseId: string }[]; nextCursor: string | null };
    ids.push(...body.items.map((i) => i.releaseId));
    cursor = body.nextCursor;
  } while (cursor);
  return ids;
}

beforeAll(async () => {
  const login = await fetch(`${suite.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@omni.local', password: ADMIN_PASSWORD }),
  });
  expect(login.status).toBe(200);
  adminSession = (await login.json()) as ApiSession;

  const artist = randomUUID();
  const token = await signTestToken(await suite.platform.ports.documents('identity'), {
    userId: artist,
    roles: ['artist'],
  });
  for (let i = 0; i < RELEASES; i++) {
    const title = `Release ${String(i + 1).padStart(2, '0')}`;
    const res = await fetch(`${suite.url}/api/releases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(releaseBody(artist, { releaseTitle: title, trackTitle: title })),
    });
    expect(res.status).toBe(201);
    waiting.push(((await res.json()) as { release: { id: string } }).release.id);
  }
  // Delivery opens each review from the release.created event, after the create answered.
  for (const until = Date.now() + 30_000; (await inReview(adminSession.accessToken)).length < RELEASES; ) {
    if (Date.now() > until) throw new Error('the releases did not all reach the review queue');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 120_000);

const itemIds = (page: Page) =>
  page
    .getByTestId('review-item')
    .evaluateAll((items) => items.map((i) => i.getAttribute('data-release-id')!));

const itemCount = (page: Page, count: number) =>
  page.waitForFunction((n) => document.querySelectorAll('[data-testid="review-item"]').length === n, count);

const sorted = (ids: string[]) => [...ids].sort();

describe.each([1440, 375])('at %i px wide', (width) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await suite.browser.newContext({ viewport: { width, height: width < 768 ? 812 : 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await storeSession(page, suite.url, adminSession);
  });
  afterAll(() => context?.close());

  it('Load more adds the rest, none twice, none missing; a rejection on page two keeps the queue whole', async () => {
    await page.goto(`${suite.url}/admin/releases`);
    await page.getByRole('heading', { name: 'Release Review' }).waitFor();
    await itemCount(page, PAGE);
    const first = await itemIds(page);
    await page.getByRole('button', { name: 'Load more' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, `admin-releases-paging-more-${width}.png`) });

    await page.getByRole('button', { name: 'Load more' }).click();
    await itemCount(page, waiting.length);
    const all = await itemIds(page);
    expect(all.slice(0, PAGE)).toEqual(first);
    expect(new Set(all).size).toBe(all.length);
    expect(sorted(all)).toEqual(sorted(waiting));
    await page.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });

    const rejected = all.at(-1)!;
    const item = page.locator(`[data-release-id="${rejected}"]`);
    const title = (await item.locator('p.font-semibold').textContent())!;
    await item.getByRole('button', { name: `Reject ${title}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject Release' });
    await dialog.getByLabel('Reason *').fill('The cover shows a web address.');
    await dialog.getByRole('button', { name: 'Reject Release' }).click();
    await dialog.waitFor({ state: 'detached' });
    waiting = waiting.filter((id) => id !== rejected);
    await itemCount(page, waiting.length);
    const after = await itemIds(page);
    expect(new Set(after).size).toBe(after.length);
    expect(sorted(after)).toEqual(sorted(waiting));
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.screenshot({ path: join(artifacts, `admin-releases-paging-decided-${width}.png`) });

    await page.getByRole('tab', { name: 'Rejected' }).click();
    await page.locator(`[data-release-id="${rejected}"]`).waitFor();
  });
});
