// A release's review through the running platform: catalog's release.created reaches delivery, which runs
// the automatic store checks, keeps the release in review with its store jobs held, and an admin's
// approval (delivery's gRPC: the HTTP admin routes are the gateway's) lets the jobs go; a rejection keeps
// them held with the admin's reason. The artist sees the release's status through GET /api/releases/:id.
import { randomUUID } from 'node:crypto';
import { createGrpcClient, makeEnvelope, type PromiseClient } from '@omni/platform';
import { catalog, delivery } from '@omni/proto';
import { DELIVERY_MESSAGES } from '@omni/proto/api';
import {
  audioFile,
  type ReleasePlatform,
  releaseBody,
  startReleasePlatform,
  waitUntil,
} from './releases.fixtures';

let omni: ReleasePlatform;
let deliveryRpc: PromiseClient<typeof delivery.DeliveryServiceService>;
let catalogRpc: PromiseClient<typeof catalog.CatalogServiceService>;
const artist = randomUUID();
const admin = randomUUID();
let token: string;

beforeAll(async () => {
  omni = await startReleasePlatform();
  token = await omni.token(artist);
  deliveryRpc = createGrpcClient(delivery.DeliveryServiceService, omni.config.grpcAddress('delivery'));
  catalogRpc = createGrpcClient(catalog.CatalogServiceService, omni.config.grpcAddress('catalog'));
});
afterAll(async () => {
  deliveryRpc?.close();
  catalogRpc?.close();
  await omni?.close();
});

async function createRelease(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await omni.api('/api/releases', { method: 'POST', token, json: releaseBody(artist, extra) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { release: { id: string } }).release.id;
}

/** Delivery's view once the review exists (release.created is handled after the create answers). */
function reviewed(releaseId: string, status?: string) {
  return waitUntil(
    async () => {
      const answer = await deliveryRpc.listJobs({ releaseId });
      if (!answer.review || (status && answer.review.status !== status)) return undefined;
      return answer;
    },
    10_000,
    `the review of ${releaseId}${status ? ` to be ${status}` : ''}`,
  );
}

/** The release's status as the artist reads it (catalog keeps it from delivery.updated). */
function statusBecomes(releaseId: string, status: string) {
  return waitUntil(
    async () => {
      const res = await omni.api(`/api/releases/${releaseId}`, { token });
      const body = (await res.json()) as { release: { status: string } };
      return body.release.status === status ? body : undefined;
    },
    10_000,
    `release ${releaseId} to be ${status} on GET /api/releases/:id`,
  );
}

describe('approve and reject', () => {
  it('keeps a new release in review with its jobs held, and approval lets every job go', async () => {
    const releaseId = await createRelease();
    const waiting = await reviewed(releaseId, 'in_review');
    expect(waiting.summary?.releaseStatus).toBe('in_review');
    expect(waiting.jobs.map((j) => [j.target, j.status])).toEqual([
      ['spotify', 'queued'],
      ['apple_music', 'queued'],
      ['tidal', 'queued'],
    ]);
    expect(waiting.review).toMatchObject({ title: 'Night Drive', artistName: 'Nova Reyes', storeCount: 3 });

    // It is in the queue.
    const queue = await deliveryRpc.listReviewQueue({ status: 'in_review', limit: 100, cursor: '' });
    expect(queue.reviews.map((r) => r.releaseId)).toContain(releaseId);

    await statusBecomes(releaseId, 'in_review');
    const { review } = await deliveryRpc.approveRelease({ releaseId, adminId: admin });
    expect(review).toMatchObject({ status: 'approved', decidedBy: admin });
    await statusBecomes(releaseId, 'delivering');
    const after = await deliveryRpc.listJobs({ releaseId });
    expect(after.summary?.releaseStatus).toBe('delivering');

    // Twice is refused with the contract's words, not a 5xx.
    await expect(deliveryRpc.approveRelease({ releaseId, adminId: admin })).rejects.toMatchObject({
      details: DELIVERY_MESSAGES.notInReview,
    });
  });

  it('rejects with the admin reason, which the review then carries; a short reason is refused', async () => {
    const releaseId = await createRelease();
    await reviewed(releaseId, 'in_review');
    await expect(
      deliveryRpc.rejectRelease({ releaseId, adminId: admin, reason: 'bad' }),
    ).rejects.toMatchObject({ details: DELIVERY_MESSAGES.reasonRequired });

    const reason = 'The cover shows a store logo; please replace it.';
    await deliveryRpc.rejectRelease({ releaseId, adminId: admin, reason });
    await statusBecomes(releaseId, 'rejected');
    const after = await deliveryRpc.listJobs({ releaseId });
    expect(after.review).toMatchObject({ status: 'rejected', reason, decidedBy: admin });
    expect(after.summary?.releaseStatus).toBe('rejected');
    await expect(deliveryRpc.approveRelease({ releaseId, adminId: admin })).rejects.toMatchObject({
      details: DELIVERY_MESSAGES.notInReview,
    });
  });
});

describe('automatic store checks', () => {
  it('rejects by itself a release every store would refuse, saying why', async () => {
    const releaseId = await createRelease({
      releaseTitle: 'My Song (Official Video)',
      trackTitle: 'My Song (Official Video)',
    });
    const { review, summary } = await reviewed(releaseId, 'rejected');
    expect(summary?.releaseStatus).toBe('rejected');
    expect(review).toMatchObject({ decidedBy: 'auto' });
    expect(review?.reason).toContain(DELIVERY_MESSAGES.autoRejected);
    expect(review?.findings).toEqual([
      expect.objectContaining({ rule: 'title.marketing', severity: 'error', stores: [] }),
    ]);
    // Not in the admins' queue: nothing for a person to decide.
    const queue = await deliveryRpc.listReviewQueue({ status: 'in_review', limit: 100, cursor: '' });
    expect(queue.reviews.map((r) => r.releaseId)).not.toContain(releaseId);
  });

  it('keeps in review, with the finding for the admin, a release only some stores refuse', async () => {
    const releaseId = await createRelease({
      trackTitle: 'Night Drive (feat. Kai Long)',
      stores: ['spotify', 'soundcloud'],
    });
    const { review } = await reviewed(releaseId, 'in_review');
    expect(review?.findings).toEqual([
      expect.objectContaining({ rule: 'title.credits', severity: 'error', stores: ['spotify'] }),
    ]);
  });
});

describe('the review queue', () => {
  it('pages oldest first with a cursor, and refuses a forged cursor with a 400-class error', async () => {
    const ids = [await createRelease(), await createRelease(), await createRelease()];
    for (const id of ids) await reviewed(id, 'in_review');
    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await deliveryRpc.listReviewQueue({ status: 'in_review', limit: 2, cursor });
      expect(page.reviews.length).toBeLessThanOrEqual(2);
      seen.push(...page.reviews.map((r) => r.releaseId));
      cursor = page.nextCursor;
    } while (cursor);
    const mine = seen.filter((id) => ids.includes(id));
    expect(mine).toEqual(ids);
    expect(new Set(seen).size).toBe(seen.length);
    await expect(
      deliveryRpc.listReviewQueue({ status: 'in_review', limit: 2, cursor: 'not-a-cursor' }),
    ).rejects.toMatchObject({ code: 3 });
  });
});

describe('fix and resubmit', () => {
  const form = (releaseId: string, over: Partial<catalog.ResubmitReleaseRequest> = {}) =>
    catalog.ResubmitReleaseRequest.fromPartial({
      releaseId,
      ownerId: artist,
      artistName: 'Nova Reyes',
      releaseTitle: 'My Song',
      trackTitle: 'My Song',
      releaseType: 'single',
      genre: 'Electronic',
      label: 'Moonlit Records',
      explicit: false,
      ...over,
    });

  it('sends an automatically rejected release back to review with fresh checks, then approval delivers it', async () => {
    const releaseId = await createRelease({
      releaseTitle: 'My Song (Official Video)',
      trackTitle: 'My Song (Official Video)',
    });
    await statusBecomes(releaseId, 'rejected');

    // Someone else's release is not found; an unchanged field set still follows the create rules.
    await expect(catalogRpc.resubmitRelease(form(releaseId, { ownerId: admin }))).rejects.toMatchObject({
      code: 5,
    });
    await expect(catalogRpc.resubmitRelease(form(releaseId, { releaseTitle: ' ' }))).rejects.toMatchObject({
      code: 3,
    });

    const { release } = await catalogRpc.resubmitRelease(form(releaseId, { stores: ['spotify', 'deezer'] }));
    expect(release).toMatchObject({ title: 'My Song', status: 'in_review', stores: ['spotify', 'deezer'] });
    const back = await reviewed(releaseId, 'in_review');
    expect(back.review?.findings).toEqual([]);
    // The stores follow the form: deezer added, apple_music and tidal dropped (they never left).
    expect(back.jobs.map((j) => j.target).sort()).toEqual(['deezer', 'spotify']);
    await statusBecomes(releaseId, 'in_review');

    // Waiting for review again: a second resubmission is refused with the contract's words.
    await expect(catalogRpc.resubmitRelease(form(releaseId))).rejects.toMatchObject({
      details: DELIVERY_MESSAGES.notRejected,
    });

    await deliveryRpc.approveRelease({ releaseId, adminId: admin });
    await statusBecomes(releaseId, 'delivering');
  });

  it('judges a replaced master again: refused when storage refuses it, its facts checked when it passes', async () => {
    const releaseId = await createRelease({ stores: ['spotify', 'beatport'] });
    await reviewed(releaseId, 'in_review');
    await deliveryRpc.rejectRelease({
      releaseId,
      adminId: admin,
      reason: 'The master clips badly; please remaster.',
    });
    await statusBecomes(releaseId, 'rejected');

    const broken = audioFile(artist, { problems: ['This audio file could not be read (truncated).'] });
    await expect(catalogRpc.resubmitRelease(form(releaseId, { audio: broken }))).rejects.toMatchObject({
      code: 3,
      details: 'This audio file could not be read (truncated).',
    });

    const mono = audioFile(artist, { channels: 1 });
    await catalogRpc.resubmitRelease(form(releaseId, { audio: mono }));
    const { review } = await reviewed(releaseId, 'in_review');
    expect(review?.findings).toEqual([
      expect.objectContaining({ rule: 'audio.mono', severity: 'warning', stores: ['beatport'] }),
    ]);
    expect(review?.reason).toBe('');
  });

  it('refuses to resubmit a release nobody rejected', async () => {
    const releaseId = await createRelease();
    await reviewed(releaseId, 'in_review');
    await expect(catalogRpc.resubmitRelease(form(releaseId))).rejects.toMatchObject({
      details: DELIVERY_MESSAGES.notRejected,
    });
  });
});

describe("catalog's release status", () => {
  it('keeps the newest delivery.updated: a late, older event never takes the status back', async () => {
    const releaseId = await createRelease();
    await reviewed(releaseId, 'in_review');
    await deliveryRpc.approveRelease({ releaseId, adminId: admin });
    await statusBecomes(releaseId, 'delivering');

    // A stale event (version 1, long applied) redelivered for this release, then on the same key (same
    // partition, so handled after it) an event for another release: once that one shows, the stale one
    // has been handled too.
    const other = await createRelease();
    await reviewed(other, 'in_review');
    const event = (data: Record<string, unknown>) =>
      JSON.stringify(
        makeEnvelope('delivery.updated', 'delivery', releaseId, {
          ownerId: artist,
          target: null,
          jobKind: null,
          status: 'rejected',
          reason: 'stale',
          at: new Date().toISOString(),
          releaseId,
          releaseStatus: 'rejected',
          version: 1,
          ...data,
        }),
      );
    const bus = await omni.ports.events();
    await bus.publish('delivery.updated', [
      { key: releaseId, value: event({}) },
      { key: releaseId, value: event({ releaseId: other, releaseStatus: 'live', version: 1000 }) },
    ]);
    await statusBecomes(other, 'live');
    const res = await omni.api(`/api/releases/${releaseId}`, { token });
    expect(((await res.json()) as { release: { status: string } }).release.status).toBe('delivering');
  });
});
