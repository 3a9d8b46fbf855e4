// The delivery pipeline through a started platform: a real release (real WAV and PNG uploads) approved
// by an admin for four stores is packaged (ERN 4.3, XSD-valid), sent as one batch per store with
// BatchComplete last, acknowledged by the embedded store simulator and goes live; a store that rejects
// ends rejected with its words; a store that fails twice ends live after two resends; a takedown of two
// stores ends taken_down for those.
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createGrpcClient } from '@omni/platform';
import { catalog } from '@omni/proto';
import { createErnValidator, type ErnValidator } from '../../services/delivery/src/domain/ddex';
import {
  acknowledgementsOf,
  approve,
  batchesOf,
  createRealRelease,
  deliveryClient,
  startDeliveryPlatform,
} from './delivery.fixtures';
import { type ReleasePlatform, waitUntil } from './releases.fixtures';

let omni: ReleasePlatform;
let rpc: ReturnType<typeof deliveryClient>;
let validator: ErnValidator;
const artist = randomUUID();
let token: string;

beforeAll(async () => {
  omni = await startDeliveryPlatform();
  token = await omni.token(artist);
  rpc = deliveryClient(omni);
  validator = createErnValidator();
}, 60_000);
afterAll(async () => {
  rpc?.close();
  await validator?.close();
  await omni?.close();
});

type Jobs = Awaited<ReturnType<typeof rpc.listJobs>>['jobs'];

function settled(releaseId: string, done: (jobs: Jobs) => boolean, what: string) {
  return waitUntil(
    async () => {
      const { jobs } = await rpc.listJobs({ releaseId });
      return jobs.length > 0 && done(jobs) ? jobs : undefined;
    },
    30_000,
    what,
  );
}

const byTarget = (jobs: Jobs) => Object.fromEntries(jobs.map((j) => [j.target, j]));

it('delivers an approved release to every store once: valid ERN, BatchComplete, acknowledged, live', async () => {
  const targets = ['spotify', 'apple_music', 'tidal', 'deezer'];
  const release = await createRealRelease(omni, artist, token, targets, { releaseDate: '2026-01-02' });
  await approve(rpc, release.id);

  const jobs = await settled(release.id, (js) => js.every((j) => j.status === 'live'), 'every store live');
  expect(jobs.map((j) => j.target).sort()).toEqual([...targets].sort());
  for (const job of jobs) {
    expect(job.steps.map((s) => s.status)).toEqual(['queued', 'packaging', 'sent', 'acknowledged', 'live']);
    expect(job.attempts).toBe(1);
    const { xml, fileName } = await rpc.getErn({ releaseId: release.id, target: job.target });
    expect(fileName).toBe(`${release.upc}.xml`);
    expect(await validator.validate(xml)).toEqual({ valid: true, errors: [] });
    expect(xml).toContain(`<ICPN>${release.upc}</ICPN>`);
    // One batch per store, complete, and the store acknowledged exactly that one message.
    expect(batchesOf(omni.dataDir, job.target)).toEqual([`N_${job.batchId}`]);
    const folder = join(omni.dataDir, 'delivery', 'stores', job.target, `N_${job.batchId}`);
    expect(readdirSync(folder).sort()).toEqual([`BatchComplete_${job.batchId}.xml`, release.upc].sort());
    expect(readdirSync(join(folder, release.upc, 'resources'))).toHaveLength(2);
    // Read and acted on, the ack was moved to processed/: the folder listed every poll keeps only
    // unanswered batches' acks, so its listing does not grow with every release ever delivered.
    expect(acknowledgementsOf(omni.dataDir, job.target)).toEqual([
      `processed/ACK_${job.batchId}_${job.messageId}.xml`,
    ]);
  }
  const { summary } = await rpc.listJobs({ releaseId: release.id });
  expect(summary?.releaseStatus).toBe('live');
});

it('ends a store that rejects as rejected with its reason, and resends to a store that fails twice', async () => {
  const reason = 'Cover art contains a URL.';
  await rpc.configureSimulator({ target: 'napster', mode: 'reject', times: 1, reason });
  await rpc.configureSimulator({ target: 'qobuz', mode: 'fail', times: 2, reason: 'Temporary outage.' });
  const release = await createRealRelease(omni, artist, token, ['napster', 'qobuz']);
  await approve(rpc, release.id);

  const jobs = byTarget(
    await settled(
      release.id,
      (js) => js.every((j) => ['rejected', 'live'].includes(j.status)),
      'napster rejected and qobuz live',
    ),
  );
  expect(jobs.napster).toMatchObject({ status: 'rejected', reason, deadLettered: false });
  expect(jobs.qobuz!.status).toBe('live');
  expect(jobs.qobuz!.steps.filter((s) => s.status === 'failed')).toHaveLength(2);
  expect(jobs.qobuz!.attempts).toBe(3);
  // Each resend is a new batch: three for qobuz, each acknowledged once.
  expect(batchesOf(omni.dataDir, 'qobuz')).toHaveLength(3);
  expect(acknowledgementsOf(omni.dataDir, 'qobuz')).toHaveLength(3);
});

it('lets the artist fix a release a store rejected; once approved again, every store gets the fix', async () => {
  const reason = 'The title is in all capitals.';
  await rpc.configureSimulator({ target: 'napster', mode: 'reject', times: 1, reason });
  const release = await createRealRelease(omni, artist, token, ['napster', 'tidal'], {
    releaseDate: '2026-01-02',
  });
  await approve(rpc, release.id);
  await settled(
    release.id,
    (js) => byTarget(js).napster?.status === 'rejected' && byTarget(js).tidal?.status === 'live',
    'napster rejected, tidal live',
  );
  // Catalog learns of the store's rejection from delivery.updated: the release may now be fixed.
  const catalogRpc = createGrpcClient(catalog.CatalogServiceService, omni.config.grpcAddress('catalog'));
  try {
    const resubmit = () =>
      catalogRpc.resubmitRelease(
        catalog.ResubmitReleaseRequest.fromPartial({
          releaseId: release.id,
          ownerId: artist,
          artistName: 'Nova Reyes',
          releaseTitle: 'Night Drive (Fixed)',
          trackTitle: 'Night Drive (Fixed)',
          releaseType: 'single',
          genre: 'Hip-Hop/Rap',
          label: 'Moonlit Records',
          releaseDate: '2026-01-02',
          explicit: true,
        }),
      );
    const { release: fixed } = await waitUntil(
      () => resubmit().catch(() => undefined),
      10_000,
      'the resubmission to be accepted',
    );
    expect(fixed).toMatchObject({ title: 'Night Drive (Fixed)', status: 'in_review' });
    await waitUntil(
      async () =>
        (await rpc.listJobs({ releaseId: release.id })).review?.status === 'in_review' ? true : undefined,
      10_000,
      'the release back in review',
    );
    await rpc.approveRelease({ releaseId: release.id, adminId: 'test-admin' });
    const jobs = byTarget(
      await settled(
        release.id,
        (js) =>
          js.every((j) => j.status === 'live' && j.steps.filter((s) => s.status === 'live').length >= 1) &&
          js.every((j) => j.batchId !== ''),
        'both stores live with the fix',
      ),
    );
    // Both stores were sent the corrected release: a second batch each, whose message carries the new title.
    for (const target of ['napster', 'tidal']) {
      const store = join(omni.dataDir, 'delivery', 'stores', target);
      const ours = batchesOf(omni.dataDir, target).filter((b) =>
        readdirSync(join(store, b)).includes(release.upc),
      );
      expect(ours).toHaveLength(2);
      const { xml } = await rpc.getErn({ releaseId: release.id, target });
      expect(xml).toContain('Night Drive (Fixed)');
    }
    expect(jobs.tidal!.steps.map((s) => s.status)).toEqual([
      'queued',
      'packaging',
      'sent',
      'acknowledged',
      'live',
      'queued',
      'packaging',
      'sent',
      'acknowledged',
      'live',
    ]);
  } finally {
    catalogRpc.close();
  }
});

it('takes a release down from two of its stores', async () => {
  const targets = ['spotify', 'tidal', 'deezer'];
  const release = await createRealRelease(omni, artist, token, targets);
  await approve(rpc, release.id);
  await settled(release.id, (js) => js.every((j) => j.status === 'live'), 'every store live');

  const { jobs: changed } = await rpc.takeDown({
    releaseId: release.id,
    stores: ['spotify', 'deezer'],
    callerId: artist,
  });
  expect(changed.map((j) => [j.target, j.jobKind]).sort()).toEqual([
    ['deezer', 'takedown'],
    ['spotify', 'takedown'],
  ]);
  const jobs = await settled(
    release.id,
    (js) => js.filter((j) => j.status === 'taken_down').length === 2,
    'two stores taken down',
  );
  expect(Object.fromEntries(jobs.map((j) => [j.target, j.status]))).toEqual({
    spotify: 'taken_down',
    tidal: 'live',
    deezer: 'taken_down',
  });
  // The takedown is a NewReleaseMessage with no deals.
  const { xml } = await rpc.getErn({ releaseId: release.id, target: 'spotify' });
  expect(xml).toContain('NewReleaseMessage');
  expect(xml).not.toContain('<DealList>');
  // Nothing left to take down there; a store the release never went to is refused as such.
  await expect(
    rpc.takeDown({ releaseId: release.id, stores: ['spotify'], callerId: artist }),
  ).rejects.toMatchObject({ details: expect.stringContaining('nothing to take down') });
  await expect(
    rpc.takeDown({ releaseId: release.id, stores: ['beatport'], callerId: artist }),
  ).rejects.toMatchObject({ details: expect.stringContaining('not delivered to that store') });
});

it('holds a takedown asked while the ingest is in flight until the ingest settles, then sends it after', async () => {
  // The store takes its time to acknowledge, so the ingest is still `sent` when the takedown comes.
  await rpc.configureSimulator({ target: 'soundcloud', mode: 'accept', times: 0, reason: '', delayMs: 1500 });
  const release = await createRealRelease(omni, artist, token, ['soundcloud']);
  await approve(rpc, release.id);
  await settled(release.id, (js) => js[0]!.status === 'sent', 'the ingest sent');

  const { jobs: changed } = await rpc.takeDown({ releaseId: release.id, stores: [], callerId: artist });
  expect(changed.map((j) => [j.target, j.jobKind, j.status])).toEqual([['soundcloud', 'ingest', 'sent']]);
  const [job] = await settled(release.id, (js) => js[0]!.status === 'taken_down', 'soundcloud taken down');
  expect(job!.jobKind).toBe('takedown');
  const steps = job!.steps.map((s) => s.status);
  expect(steps.slice(0, 4)).toEqual(['queued', 'packaging', 'sent', 'acknowledged']);
  expect(steps.slice(-4)).toEqual(['queued', 'packaging', 'sent', 'taken_down']);
  // Two batches, the takedown's after the ingest's: stores ingest in batch-id order.
  const batches = batchesOf(omni.dataDir, 'soundcloud').sort();
  expect(batches).toHaveLength(2);
  expect(batches[1]).toBe(`N_${job!.batchId}`);
});

it('dead-letters a store that keeps failing once the attempts are spent, and a replay delivers it', async () => {
  await rpc.configureSimulator({ target: 'anghami', mode: 'fail', times: 0, reason: 'Ingestion is down.' });
  const release = await createRealRelease(omni, artist, token, ['anghami']);
  await approve(rpc, release.id);
  const [dead] = await settled(release.id, (js) => js[0]!.deadLettered, 'anghami dead-lettered');
  // DELIVERY_MAX_ATTEMPTS (8 by default) sends, each a failed step, then no more tries.
  expect(dead).toMatchObject({
    status: 'failed',
    attempts: 8,
    reason: 'Ingestion is down.',
    nextAttemptAt: '',
  });
  expect(dead!.steps.filter((s) => s.status === 'failed')).toHaveLength(8);
  const { jobs: letters } = await rpc.listDeadLetters({ limit: 50 });
  expect(letters.map((j) => [j.releaseId, j.target])).toContainEqual([release.id, 'anghami']);

  await rpc.configureSimulator({ target: 'anghami', mode: 'accept', times: 0, reason: '' });
  const { job } = await rpc.replayDeadLetter({
    releaseId: release.id,
    target: 'anghami',
    adminId: 'test-admin',
  });
  expect(job).toMatchObject({ status: 'queued', attempts: 0, deadLettered: false });
  const [live] = await settled(release.id, (js) => js[0]!.status === 'live', 'anghami live after the replay');
  expect(live!.attempts).toBe(1);
  // Replaying what is not dead-lettered is refused in words.
  await expect(
    rpc.replayDeadLetter({ releaseId: release.id, target: 'anghami', adminId: 'test-admin' }),
  ).rejects.toMatchObject({ details: expect.stringContaining('not in the dead-letter list') });
});

it('purges a taken-down release from a store with a PurgeReleaseMessage', async () => {
  const release = await createRealRelease(omni, artist, token, ['spotify', 'tidal']);
  await approve(rpc, release.id);
  await settled(release.id, (js) => js.every((j) => j.status === 'live'), 'every store live');
  await rpc.takeDown({ releaseId: release.id, stores: ['tidal'], callerId: artist });
  await settled(release.id, (js) => js.some((j) => j.status === 'taken_down'), 'tidal taken down');

  await rpc.purgeRelease({ releaseId: release.id, stores: ['tidal'], adminId: 'test-admin' });
  const jobs = await settled(release.id, (js) => js.some((j) => j.status === 'purged'), 'tidal purged');
  expect(Object.fromEntries(jobs.map((j) => [j.target, [j.status, j.jobKind]]))).toEqual({
    spotify: ['live', 'ingest'],
    tidal: ['purged', 'purge'],
  });
  const { xml } = await rpc.getErn({ releaseId: release.id, target: 'tidal' });
  expect(xml).toContain('PurgeReleaseMessage');
  expect(await validator.validate(xml)).toEqual({ valid: true, errors: [] });
});
