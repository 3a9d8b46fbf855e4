// /app/splits and GET /api/me/splits (issue 26) on a real platform. The API: the owner sees their own
// releases with their split state, a collaborator only the shares offered to them, a stranger nothing of
// either, signed out is 401 and a parameter 400. The browser: the owner's page with a pending and a lapsed
// invitation, acting on the lapse choice (Send again) from the page, and the collaborator's view, at
// desktop width and at 390 px.
// A link lapses after 30 days of wall-clock time, which a test cannot wait for: the LAPSED state is
// therefore made at the browser's network layer (page.route) from the real answer — one pending invitation
// shown as lapsed, the first read only — and the choice then goes to the real server (a resend is allowed
// on a pending invitation too), whose next answer the page shows. The lapse itself, the owner's choices
// on it and the overview's view of a real lapse are proven in services/royalties/test/my-splits.test.ts
// with a clock the test moves.
import { type MySplits, mySplits, splitsChanged } from '@omni/proto/api';
import type { Page } from 'playwright-core';
import { browserSuite } from '../support/browser-suite';
import { png, wav } from '../support/media';
import { type ApiSession, storeSession, verifiedSession } from '../support/session';
import { uploadFile } from '../support/uploads';

const suite = browserSuite('splits-overview', { env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
const pages = suite.keepPages();
const PHONE = { width: 390, height: 844 };

const stamp = Date.now();
const OWNER = `splits-owner-${stamp}@example.com`;
const COLLAB = `splits-collab-${stamp}@example.com`;
const PENDING = `splits-pending-${stamp}@example.com`;
const LAPSING = `splits-lapsing-${stamp}@example.com`;

let owner: ApiSession;
let collaborator: ApiSession;
let stranger: ApiSession;
let shared: string;
let alone: string;

const api = (path: string, token?: string, init: RequestInit = {}) =>
  fetch(`${suite.url}${path}`, {
    ...init,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
  });

async function createRelease(session: ApiSession, title: string): Promise<string> {
  const token = session.accessToken;
  const audio = await uploadFile(suite.url, token, {
    bucket: 'omni-assets',
    fileName: 'take.wav',
    contentType: 'audio/wav',
    bytes: wav(3, { tone: true }),
    role: 'audio',
  });
  const artwork = await uploadFile(suite.url, token, {
    bucket: 'omni-assets',
    fileName: 'cover.png',
    contentType: 'image/png',
    bytes: png(3000, 3000),
    role: 'artwork',
  });
  const res = await api('/api/releases', token, {
    method: 'POST',
    body: JSON.stringify({
      artistName: 'Split Artist',
      releaseTitle: title,
      trackTitle: title,
      releaseType: 'single',
      genre: 'Hip-Hop/Rap',
      explicit: false,
      audio: { bucket: audio.bucket, fileKey: audio.fileKey },
      artwork: { bucket: artwork.bucket, fileKey: artwork.fileKey },
      stores: ['spotify'],
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { release: { id: string } }).release.id;
}

async function mine(session: ApiSession): Promise<MySplits> {
  const res = await api('/api/me/splits', session.accessToken);
  expect(res.status).toBe(200);
  return mySplits.parse(await res.json());
}

async function signedInPage(session: ApiSession, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const page = await suite.newPage({ viewport });
  pages.push(page);
  await storeSession(page, suite.url, session);
  return page;
}

beforeAll(async () => {
  owner = await verifiedSession(suite.url, OWNER);
  collaborator = await verifiedSession(suite.url, COLLAB);
  stranger = await verifiedSession(suite.url, `splits-stranger-${stamp}@example.com`);
  shared = await createRelease(owner, 'Shared Road');
  alone = await createRelease(owner, 'All Mine');
  const res = await api(`/api/releases/${shared}/splits`, owner.accessToken, {
    method: 'PUT',
    body: JSON.stringify({
      shares: [
        { email: COLLAB, percent: '20' },
        { email: PENDING, percent: '10' },
        { email: LAPSING, percent: '15' },
      ],
    }),
  });
  expect(res.status).toBe(200);
  const { links } = splitsChanged.parse(await res.json());
  const token = new URL(links.find((l) => l.email === COLLAB)!.url).searchParams.get('token')!;
  const accepted = await api(`/api/splits/invitations/${token}/accept`, collaborator.accessToken, {
    method: 'POST',
  });
  expect(accepted.status).toBe(200);
}, 240_000);

describe('GET /api/me/splits', () => {
  it('the owner sees their releases: one shared (who and how much, pending), one all theirs', async () => {
    const view = await mine(owner);
    const byTitle = new Map(view.owned.map((r) => [r.title, r]));
    expect([...byTitle.keys()].sort()).toEqual(['All Mine', 'Shared Road']);
    expect(byTitle.get('All Mine')).toEqual(
      expect.objectContaining({ releaseId: alone, shares: [], pending: [], lapsed: [] }),
    );
    const road = byTitle.get('Shared Road')!;
    expect(road.shares.map((s) => [s.email, s.percent, s.status])).toEqual([
      [OWNER, '55', 'owner'],
      [COLLAB, '20', 'accepted'],
      [PENDING, '10', 'pending'],
      [LAPSING, '15', 'pending'],
    ]);
    expect(road.pending.map((p) => p.email).sort()).toEqual([LAPSING, PENDING].sort());
    expect(road.lapsed).toEqual([]);
    expect(view.invited).toEqual([]);
  });

  it('a collaborator sees only the share offered to them; a stranger nothing of either', async () => {
    const theirs = await mine(collaborator);
    expect(theirs.owned).toEqual([]);
    expect(theirs.invited.map((i) => [i.releaseId, i.releaseTitle, i.status, i.percent])).toEqual([
      [shared, 'Shared Road', 'accepted', '20'],
    ]);
    const text = JSON.stringify(theirs);
    for (const other of [OWNER, PENDING, LAPSING, 'All Mine']) expect(text).not.toContain(other);
    const nothing = await mine(stranger);
    expect(nothing.owned).toEqual([]);
    expect(nothing.invited).toEqual([]);
  });

  it('signed out is 401; a parameter is refused with 400', async () => {
    expect((await api('/api/me/splits')).status).toBe(401);
    const bad = await api('/api/me/splits?userId=someone-else', owner.accessToken);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe(
      'GET /api/me/splits takes no parameters.',
    );
  });
});

describe('/app/splits', () => {
  it('the owner sees the pending and the lapsed invitation and sends the lapsed one again', async () => {
    for (const [viewport, suffix] of [
      [{ width: 1280, height: 900 }, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const page = await signedInPage(owner, viewport);
      // The first read shows the LAPSING invitation as lapsed (see the header); later reads are real.
      let reads = 0;
      await page.route('**/api/me/splits', async (route) => {
        const real = mySplits.parse(await (await route.fetch()).json());
        reads += 1;
        if (reads === 1)
          for (const r of real.owned) {
            const inv = r.pending.find((p) => p.email === LAPSING);
            if (!inv) continue;
            r.pending = r.pending.filter((p) => p !== inv);
            r.lapsed = [
              {
                invitationId: inv.invitationId,
                email: LAPSING,
                expiresAt: '2026-10-01T00:00:00.000Z',
                held: '0',
                choices: ['resend', 'reassign', 'take_back'],
              },
            ];
          }
        await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(real) });
      });
      await page.goto(`${suite.url}/app`);
      await page.getByRole('link', { name: 'Manage Splits' }).click();
      await page.waitForURL(/\/app\/splits$/);
      await page.getByRole('heading', { level: 1, name: 'Splits' }).waitFor();

      const road = page.getByTestId('owned-release').filter({ hasText: 'Shared Road' });
      await road.getByTestId('pending-invitation').filter({ hasText: PENDING }).waitFor();
      const lapsed = road.getByTestId('lapsed-invitation');
      await lapsed.filter({ hasText: LAPSING }).waitFor();
      expect(await lapsed.innerText()).toContain('lapsed on 2026-10-01 without an answer');
      expect(await road.getByRole('link', { name: 'Splits tab' }).getAttribute('href')).toBe(
        `/release/${shared}?tab=splits`,
      );
      const mineOnly = page.getByTestId('owned-release').filter({ hasText: 'All Mine' });
      await mineOnly.getByText('No splits: 100 % of this release is yours.').waitFor();
      await page.getByText('Nobody has invited you to a split yet.').waitFor();
      // Nothing wider than the window at 390 px.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await suite.shot(page, `owner-${suffix}`);

      await lapsed.getByRole('button', { name: 'Send again' }).click();
      await suite.toast(page, `A new invitation went to ${LAPSING}; the old link no longer works.`);
      await road.getByTestId('pending-invitation').filter({ hasText: LAPSING }).waitFor();
      expect(await road.getByTestId('lapsed-invitation').count()).toBe(0);
      await suite.shot(page, `owner-after-resend-${suffix}`);
    }
  });

  it('the collaborator sees the share offered to them and a link to their earnings', async () => {
    for (const [viewport, suffix] of [
      [{ width: 1280, height: 900 }, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const page = await signedInPage(collaborator, viewport);
      await page.goto(`${suite.url}/app/splits`);
      const share = page.getByTestId('invited-share');
      await share.filter({ hasText: 'Shared Road' }).waitFor();
      expect(await share.innerText()).toContain('20 %');
      expect(await share.innerText()).toContain('Accepted');
      await page.getByText('You have no releases yet.', { exact: false }).waitFor();
      expect(await page.getByRole('link', { name: 'your earnings' }).getAttribute('href')).toBe(
        '/app/earnings',
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await suite.shot(page, `collaborator-${suffix}`);
    }
  });

  it('an error from the API is said in words', async () => {
    const page = await signedInPage(owner);
    await page.route('**/api/me/splits', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'unavailable', message: 'Royalties is restarting.' } }),
      }),
    );
    await page.goto(`${suite.url}/app/splits`);
    await page.getByRole('alert').filter({ hasText: 'Royalties is restarting.' }).waitFor();
  });
});
