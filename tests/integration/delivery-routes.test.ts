// The delivery routes' own rules through the real gateway: who may call each (anonymous 401, non-admin 403
// on admin routes, someone else's release 404, as catalog decides), bad bodies 400 with the contract's
// messages, and the live stream's shape (headers, `snapshot`, `end`). What the pipeline does with an
// approval is delivery-pipeline*'s and release-review*'s to test.
import { randomUUID } from 'node:crypto';
import { DELIVERY_MESSAGES, RELEASE_MESSAGES } from '@omni/proto/api';
import { type ReleasePlatform, releaseBody, startReleasePlatform, waitUntil } from './releases.fixtures';

let omni: ReleasePlatform;
const alice = randomUUID();
const bob = randomUUID();
let aliceToken: string;
let bobToken: string;
let adminToken: string;
let releaseId: string;
/** A second release of Alice's, for the queue and the stream limit. */
let second: string;

const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { message: string; code: string } }).error;

beforeAll(async () => {
  omni = await startReleasePlatform();
  aliceToken = await omni.token(alice);
  bobToken = await omni.token(bob);
  adminToken = await omni.token(randomUUID(), ['artist', 'admin']);
  const res = await omni.api('/api/releases', {
    method: 'POST',
    token: aliceToken,
    json: releaseBody(alice),
  });
  expect(res.status).toBe(201);
  releaseId = ((await res.json()) as { release: { id: string } }).release.id;
  const res2 = await omni.api('/api/releases', {
    method: 'POST',
    token: aliceToken,
    json: releaseBody(alice),
  });
  second = ((await res2.json()) as { release: { id: string } }).release.id;
  // Delivery hears of the releases from catalog's event: wait until it has the jobs and the reviews.
  for (const id of [releaseId, second])
    await waitUntil(async () => {
      const r = await omni.api(`/api/releases/${id}/deliveries`, { token: aliceToken });
      const body = (await r.json()) as { jobs: unknown[]; releaseStatus: string };
      return body.jobs.length === 3 && body.releaseStatus === 'in_review' ? body : undefined;
    });
});
let closed = false;
afterAll(() => (closed ? undefined : omni?.close()));

const ownerRoutes = () => [
  ['GET', `/api/releases/${releaseId}/deliveries`],
  ['GET', `/api/releases/${releaseId}/deliveries/stream`],
  ['GET', `/api/releases/${releaseId}/deliveries/spotify/ern`],
  ['POST', `/api/releases/${releaseId}/takedown`],
  ['POST', `/api/releases/${releaseId}/resubmit`],
];
const adminRoutes = () => [
  ['GET', '/api/admin/releases'],
  ['POST', `/api/admin/releases/${releaseId}/approve`],
  ['POST', `/api/admin/releases/${releaseId}/reject`],
  ['POST', `/api/admin/releases/${releaseId}/purge`],
  ['GET', '/api/admin/deliveries/dead-letters'],
  ['POST', `/api/admin/deliveries/dead-letters/${releaseId}/spotify/replay`],
  ['POST', '/api/admin/store-simulator/spotify'],
];

/** Reads a text/event-stream to its end (or `ms`), as the page does. */
async function readEvents(res: Response, ms = 5000) {
  const events: { event: string; data: unknown }[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const timer = setTimeout(() => reader.cancel(), ms);
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    for (let i = buffer.indexOf('\n\n'); i >= 0; i = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, i);
      buffer = buffer.slice(i + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event) events.push({ event, data: JSON.parse(data ?? 'null') });
    }
  }
  clearTimeout(timer);
  return events;
}

describe('who may call', () => {
  it('asks anonymous callers to sign in, on every route', async () => {
    for (const [method, path] of [...ownerRoutes(), ...adminRoutes()]) {
      const res = await omni.api(path!, { method, json: method === 'POST' ? {} : undefined });
      expect([path, res.status]).toEqual([path, 401]);
      expect((await errorOf(res)).message).toBe('Please sign in to continue.');
    }
  });

  it('refuses signed-in artists on admin routes with 403', async () => {
    for (const [method, path] of adminRoutes()) {
      const res = await omni.api(path!, {
        method,
        token: aliceToken,
        json: method === 'POST' ? {} : undefined,
      });
      expect([path, res.status]).toEqual([path, 403]);
      expect((await errorOf(res)).message).toBe('This needs an administrator account.');
    }
  });

  it("answers 404 for someone else's release, without revealing it exists", async () => {
    for (const [method, path] of ownerRoutes().filter(([, p]) => !p!.endsWith('/resubmit'))) {
      const res = await omni.api(path!, {
        method,
        token: bobToken,
        json: method === 'POST' ? {} : undefined,
      });
      expect([path, res.status]).toEqual([path, 404]);
      expect((await errorOf(res)).message).toBe('No such release.');
    }
    // A made-up id is not found either, for the owner's routes and the admin's.
    for (const path of ['/api/releases/not-a-release/deliveries', '/api/releases/nope/deliveries/stream']) {
      expect((await omni.api(path, { token: aliceToken })).status).toBe(404);
    }
    const approve = await omni.api('/api/admin/releases/nope/approve', { method: 'POST', token: adminToken });
    expect(approve.status).toBe(404);
  });

  it("lets an admin read anyone's deliveries", async () => {
    const res = await omni.api(`/api/releases/${releaseId}/deliveries`, { token: adminToken });
    expect(res.status).toBe(200);
  });
});

describe('bad input', () => {
  it("refuses a rejection without a reason with the contract's message", async () => {
    for (const body of [{}, { reason: 'short' }, { reason: '          x ' }, { reason: 42 }]) {
      const res = await omni.api(`/api/admin/releases/${releaseId}/reject`, {
        method: 'POST',
        token: adminToken,
        json: body,
      });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toBe(DELIVERY_MESSAGES.reasonRequired);
    }
  });

  it('refuses bad store lists, unknown fields and malformed JSON', async () => {
    const takedown = (body: unknown) =>
      omni.api(`/api/releases/${releaseId}/takedown`, { method: 'POST', token: aliceToken, json: body });
    let res = await takedown({ stores: 'spotify' });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe('stores must be a list of store keys.');
    res = await takedown({ stores: ['Spotify!'] });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe('Store keys are lower-case letters, digits and _.');
    res = await takedown({ stores: [], extra: true });
    expect(res.status).toBe(400);
    res = await fetch(`${omni.url}/api/releases/${releaseId}/takedown`, {
      method: 'POST',
      body: '{"stores": [',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${aliceToken}` },
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe('The request body is not valid JSON.');
  });

  it('refuses a resubmission without the required fields, and a bad simulator mode', async () => {
    let res = await omni.api(`/api/releases/${releaseId}/resubmit`, {
      method: 'POST',
      token: aliceToken,
      json: { artistName: 'Nova Reyes' },
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(RELEASE_MESSAGES.required);
    res = await omni.api('/api/admin/store-simulator/spotify', {
      method: 'POST',
      token: adminToken,
      json: { mode: 'explode' },
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe("mode must be 'accept', 'reject' or 'fail'.");
  });

  it('refuses an unknown review-queue filter', async () => {
    const res = await omni.api('/api/admin/releases?status=maybe', { token: adminToken });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/status must be one of in_review, approved, rejected/);
  });
});

describe('deliveries', () => {
  it('lists each chosen store with its name, status and steps', async () => {
    const res = await omni.api(`/api/releases/${releaseId}/deliveries`, { token: aliceToken });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as {
      releaseId: string;
      releaseStatus: string;
      moving: boolean;
      jobs: { target: string; storeName: string; status: string; steps: unknown[] }[];
    };
    expect(body.releaseId).toBe(releaseId);
    expect(body.jobs.map((j) => [j.target, j.storeName])).toEqual([
      ['spotify', 'Spotify'],
      ['apple_music', 'Apple Music'],
      ['tidal', 'TIDAL'],
    ]);
    expect(body.jobs.every((j) => j.status === 'queued')).toBe(true);
  });

  it('has no DDEX message for a store before packaging, and none for a store not in the release', async () => {
    for (const store of ['spotify', 'deezer']) {
      const res = await omni.api(`/api/releases/${releaseId}/deliveries/${store}/ern`, { token: aliceToken });
      expect(res.status).toBe(404);
    }
    const bad = await omni.api(`/api/releases/${releaseId}/deliveries/..%2Fetc/ern`, { token: aliceToken });
    expect(bad.status).toBe(400);
  });
});

describe('the live stream', () => {
  it('stays open while the release waits for review, sends the decision, then ends and closes', async () => {
    const res = await omni.api(`/api/releases/${releaseId}/deliveries/stream`, { token: aliceToken });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    expect(res.headers.get('content-encoding')).toBeNull();
    const reading = readEvents(res, 10_000);
    // The admin decides while the artist's page listens.
    await new Promise((r) => setTimeout(r, 300));
    const reject = await omni.api(`/api/admin/releases/${releaseId}/reject`, {
      method: 'POST',
      token: adminToken,
      json: { reason: 'The cover shows a web address; stores refuse it.' },
    });
    expect(reject.status).toBe(200);
    expect(((await reject.json()) as { message: string }).message).toBe(DELIVERY_MESSAGES.rejected);
    const events = await reading;
    expect(events.map((e) => e.event)).toEqual(['snapshot', 'release', 'end']);
    const snapshot = events[0]!.data as {
      releaseId: string;
      releaseStatus: string;
      moving: boolean;
      jobs: unknown[];
    };
    expect(snapshot).toMatchObject({ releaseId, releaseStatus: 'in_review', moving: true });
    expect(snapshot.jobs).toHaveLength(3);
    expect(events[1]!.data).toMatchObject({
      releaseStatus: 'rejected',
      review: { status: 'rejected', reason: 'The cover shows a web address; stores refuse it.' },
    });

    // Rejected, nothing moves: a new stream is a snapshot and its end.
    const again = await omni.api(`/api/releases/${releaseId}/deliveries/stream`, { token: aliceToken });
    expect((await readEvents(again)).map((e) => e.event)).toEqual(['snapshot', 'end']);
    // And a decided release cannot be decided again.
    const approve = await omni.api(`/api/admin/releases/${releaseId}/approve`, {
      method: 'POST',
      token: adminToken,
    });
    expect(approve.status).toBe(409);
    expect((await errorOf(approve)).message).toBe(DELIVERY_MESSAGES.notInReview);
  });

  it('lets one user follow at most 10 releases at once', async () => {
    const open: Response[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await omni.api(`/api/releases/${second}/deliveries/stream`, { token: aliceToken });
      expect(res.status).toBe(200);
      open.push(res);
    }
    const refused = await omni.api(`/api/releases/${second}/deliveries/stream`, { token: aliceToken });
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).code).toBe('too_many_streams');
    // A page that goes away frees its place.
    await open.pop()!.body!.cancel();
    await waitUntil(async () => {
      const res = await omni.api(`/api/releases/${second}/deliveries/stream`, { token: aliceToken });
      if (res.status !== 200) return undefined;
      open.push(res);
      return true;
    });
    for (const res of open) await res.body!.cancel();
  });
});

describe('fix and resubmit', () => {
  it('sends a rejected release back to review with the fixes; only its owner can, and only once rejected', async () => {
    const fixes = {
      ...releaseBody(alice),
      releaseTitle: 'Night Drive (Fixed)',
      audio: undefined,
      artwork: undefined,
    };
    // Someone else's: not found. Not rejected (the second release waits for review): refused.
    let res = await omni.api(`/api/releases/${releaseId}/resubmit`, {
      method: 'POST',
      token: bobToken,
      json: fixes,
    });
    expect(res.status).toBe(404);
    res = await omni.api(`/api/releases/${second}/resubmit`, {
      method: 'POST',
      token: aliceToken,
      json: fixes,
    });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(DELIVERY_MESSAGES.notRejected);

    // The first release was rejected by the stream test above: the owner fixes it, files unchanged.
    res = await omni.api(`/api/releases/${releaseId}/resubmit`, {
      method: 'POST',
      token: aliceToken,
      json: fixes,
    });
    expect(res.status).toBe(200);
    const { release } = (await res.json()) as { release: { title: string } };
    expect(release.title).toBe('Night Drive (Fixed)');
    // The page follows the release at once, before delivery has read catalog's event: its stream must not
    // end on the old 'rejected' but carry the release into review.
    const stream = await omni.api(`/api/releases/${releaseId}/deliveries/stream?after=resubmit`, {
      token: aliceToken,
    });
    const events = await readEvents(stream, 3000);
    expect(events.map((e) => e.event)).not.toContain('end');
    const statuses = events.map((e) => (e.data as { releaseStatus?: string }).releaseStatus);
    expect(statuses.at(-1)).toBe('in_review');
    await waitUntil(async () => {
      const r = await omni.api(`/api/releases/${releaseId}/deliveries`, { token: aliceToken });
      const body = (await r.json()) as { releaseStatus: string };
      return body.releaseStatus === 'in_review' ? body : undefined;
    });
  });
});

describe('the review queue', () => {
  it('lists releases waiting for review with what the queue shows, and approves one', async () => {
    const res = await omni.api('/api/admin/releases', { token: adminToken });
    expect(res.status).toBe(200);
    const { items } = (await res.json()) as {
      items: {
        releaseId: string;
        title: string;
        artistName: string;
        storeCount: number;
        review: { status: string };
      }[];
    };
    const item = items.find((i) => i.releaseId === second);
    expect(item).toMatchObject({ title: 'Night Drive', artistName: 'Nova Reyes', storeCount: 3 });
    expect(item!.review.status).toBe('in_review');
    const approve = await omni.api(`/api/admin/releases/${second}/approve`, {
      method: 'POST',
      token: adminToken,
    });
    expect(approve.status).toBe(200);
    expect(((await approve.json()) as { message: string }).message).toBe(DELIVERY_MESSAGES.approved);
    const approved = await omni.api('/api/admin/releases?status=approved', { token: adminToken });
    const body = (await approved.json()) as { items: { releaseId: string }[] };
    expect(body.items.map((i) => i.releaseId)).toContain(second);
  });
});

describe('shutdown', () => {
  it('ends open streams at once rather than waiting for them', async () => {
    const res = await omni.api('/api/releases', {
      method: 'POST',
      token: aliceToken,
      json: releaseBody(alice),
    });
    const { id } = ((await res.json()) as { release: { id: string } }).release;
    await waitUntil(async () => {
      const r = await omni.api(`/api/releases/${id}/deliveries`, { token: aliceToken });
      return ((await r.json()) as { releaseStatus: string }).releaseStatus === 'in_review' ? true : undefined;
    });
    // In review: the stream stays open (for up to 10 minutes).
    const stream = await omni.api(`/api/releases/${id}/deliveries/stream`, { token: aliceToken });
    const reading = readEvents(stream, 60_000);
    const started = Date.now();
    closed = true;
    await omni.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await reading).map((e) => e.event)).toEqual(['snapshot']);
  }, 30_000);
});
