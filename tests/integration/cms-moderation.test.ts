// The moderation queue and the public lists through the real HTTP surface: keyset paging with cursors
// over 60 submissions, the tab counts, each decision taken once (a second one is a 409), and the public
// Music list paged with cursors.
import {
  type AssetJson,
  adminUpload,
  type CmsApi,
  cmsApi,
  contributorSignAndPut,
  createLink,
  submitContributorFile,
} from '../support/cms';
import { wav } from '../support/media';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { signTestToken } from '../support/tokens';

let platform: TestPlatform;
let api: CmsApi;
let admin: string;

interface Listing {
  assets: AssetJson[];
  nextCursor: string | null;
  counts: { pending: number; published: number; rejected: number };
}

const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { message: string; code: string } }).error;

async function listing(status: string, limit: number, cursor?: string | null): Promise<Listing> {
  const query = `status=${status}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  const res = await api.call(`/api/admin/assets?${query}`, { token: admin });
  expect(res.status).toBe(200);
  return (await res.json()) as Listing;
}

async function everyPage(status: string, limit: number): Promise<{ pages: Listing[]; ids: string[] }> {
  const pages: Listing[] = [];
  let cursor: string | null = null;
  do {
    const page = await listing(status, limit, cursor);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor);
  return { pages, ids: pages.flatMap((p) => p.assets.map((a) => a.id)) };
}

const decide = (id: string, action: 'publish' | 'reject', reason?: string) =>
  api.call(`/api/admin/assets/${id}/${action}`, {
    method: 'POST',
    token: admin,
    body: action === 'reject' ? JSON.stringify({ reason }) : undefined,
  });

let submitted: string[] = [];

beforeAll(async () => {
  platform = await startTestPlatform();
  api = cmsApi(platform.url);
  admin = await signTestToken(await platform.ports.documents('identity'), { roles: ['artist', 'admin'] });
  const { token } = await createLink(api, admin, { pageSlug: 'music', maxUses: 60 });
  for (let i = 0; i < 60; i++) {
    const { fileKey } = await contributorSignAndPut(api, token, {
      bucket: 'documents',
      fileName: `lyrics-${i}.txt`,
      contentType: 'text/plain',
      bytes: Buffer.from(`verse ${i}`),
    });
    const res = await submitContributorFile(api, token, {
      bucket: 'documents',
      fileKey,
      title: `Lyrics ${i}`,
    });
    expect(res.status).toBe(201);
    submitted.push(((await res.json()) as { asset: AssetJson }).asset.id);
  }
  submitted = submitted.reverse(); // newest first, as the queue lists them
}, 120_000);

afterAll(() => platform?.close());

describe('moderation queue', () => {
  it('pages through 60 pending submissions, newest first, 25 at a time, with the counts', async () => {
    const { pages, ids } = await everyPage('pending', 25);
    expect(pages.map((p) => p.assets.length)).toEqual([25, 25, 10]);
    expect(pages.at(-1)!.nextCursor).toBeNull();
    expect(ids).toEqual(submitted);
    expect(pages[0]!.counts).toEqual({ pending: 60, published: 0, rejected: 0 });
    expect(pages[0]!.assets[0]).toMatchObject({
      kind: 'document',
      pageSlug: 'music',
      pageTitle: 'Music',
      title: 'Lyrics 59',
    });
  });

  it('offers no next page when the last one is exactly full', async () => {
    // 60 pending: 20 per page is three full pages, and a fourth, empty page is not promised.
    const { pages, ids } = await everyPage('pending', 20);
    expect(pages.map((p) => [p.assets.length, p.nextCursor === null])).toEqual([
      [20, false],
      [20, false],
      [20, true],
    ]);
    expect(ids).toEqual(submitted);
  });

  it('keeps the pages stable when a decision lands between two reads', async () => {
    const first = await listing('pending', 10);
    expect((await decide(first.assets[0]!.id, 'publish')).status).toBe(200);
    const second = await listing('pending', 10, first.nextCursor);
    expect(second.assets.map((a) => a.id)).toEqual(submitted.slice(10, 20));
  });

  it('takes each decision once: approving or rejecting again is a 409 that says why', async () => {
    const [a, b] = [submitted[30]!, submitted[31]!];
    expect((await decide(a, 'publish')).status).toBe(200);
    for (const again of [await decide(a, 'publish'), await decide(a, 'reject', 'late')]) {
      expect(again.status).toBe(409);
      expect(await errorOf(again)).toEqual({
        code: 'already_moderated',
        message: 'This asset was already moderated.',
      });
    }
    const rejected = await decide(b, 'reject', 'Wrong page');
    expect(rejected.status).toBe(200);
    expect(((await rejected.json()) as { asset: AssetJson }).asset).toMatchObject({
      status: 'rejected',
      rejectionReason: 'Wrong page',
    });
    expect((await decide(b, 'reject', 'again')).status).toBe(409);
    expect((await decide(b, 'publish')).status).toBe(409);

    const empty = await decide(submitted[32]!, 'reject', '   ');
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).message).toBe('Please give a reason for the rejection.');
    expect((await decide('no-such-asset', 'publish')).status).toBe(404);

    const counts = (await listing('pending', 1)).counts;
    expect(counts).toEqual({ pending: 57, published: 2, rejected: 1 });
    const published = await listing('published', 25);
    expect(published.assets.map((a) => a.id)).toEqual([a, submitted[0]]);
    expect((await listing('rejected', 25)).assets.map((a) => a.id)).toEqual([b]);
  });

  it('previews any asset for an admin but plays only published ones publicly', async () => {
    const pendingId = submitted[40]!;
    expect((await api.call(`/api/admin/assets/${pendingId}/media`, { token: admin })).status).toBe(302);
    expect((await api.call(`/api/assets/${pendingId}/media`)).status).toBe(404);
  });

  it('gives an admin the signed URL as JSON when asked, so a media element can stream it', async () => {
    const pendingId = submitted[41]!;
    const res = await api.call(`/api/admin/assets/${pendingId}/media`, {
      token: admin,
      headers: { accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    // The signed URL alone (no bearer) serves the bytes, with range requests.
    const media = await fetch(new URL(url, platform.url), { headers: { range: 'bytes=0-3' } });
    expect(media.status).toBe(206);
    expect(Buffer.from(await media.arrayBuffer()).toString('ascii')).toBe('vers');
    expect(
      (await api.call(`/api/admin/assets/${pendingId}/media`, { headers: { accept: 'application/json' } }))
        .status,
    ).toBe(401);
  });

  it('refuses a bad status, limit or cursor with 400', async () => {
    for (const query of [
      'status=archived',
      'status=pending&limit=0',
      'status=pending&limit=500',
      'status=pending&cursor=zzz',
      '',
    ]) {
      const res = await api.call(`/api/admin/assets?${query}`, { token: admin });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toBeTruthy();
    }
  });
});

describe('public list paging', () => {
  it('pages the Music list with cursors, newest published first, each with its media path', async () => {
    const titles = ['One', 'Two', 'Three', 'Four', 'Five'];
    for (const title of titles)
      await adminUpload(
        api,
        admin,
        { pageSlug: 'music', kind: 'music', title },
        { fileName: `${title}.wav`, contentType: 'audio/wav', bytes: wav(1) },
      );
    const seen: AssetJson[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await api.call(
        `/api/pages/music/assets?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as { assets: AssetJson[]; nextCursor: string | null };
      seen.push(...body.assets);
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
    // Only kind music is listed on /music: the published contributor document (kind document) is not.
    expect(seen.map((a) => a.title)).toEqual([...titles].reverse());
    expect(pages).toBe(3);
    for (const asset of seen) expect(asset.mediaUrl).toBe(`/api/assets/${asset.id}/media`);
    expect((await api.call('/api/pages/music/assets?cursor=not-ours')).status).toBe(400);
  });
});
