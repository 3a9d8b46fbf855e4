// The store simulator plays a store's side of the batch choreography: batches arrive through the real
// local transport with real ERN 4.3 messages, and it answers each complete batch exactly once.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAcknowledgement, type StoreAcknowledgement } from '../src/domain/ack';
import { createErnValidator, type ErnValidator } from '../src/domain/ddex';
import { createLocalTransport } from '../src/providers/transport/local';
import { createStoreSimulator, type StoreSimulator } from '../src/simulator';
import { corrupt, releaseBatch, sourceRelease } from './support/store-batch';

let validator: ErnValidator;
beforeAll(() => {
  validator = createErnValidator();
});
afterAll(() => validator.close());

let root: string;
let sources: string;
let simulators: StoreSimulator[];
beforeEach(() => {
  const dir = mkdtempSync(path.join(tmpdir(), 'omni-simulator-'));
  root = path.join(dir, 'stores');
  sources = path.join(dir, 'sources');
  simulators = [];
});
afterEach(async () => {
  await Promise.all(simulators.map((s) => s.stop()));
});

const KEYS = ['spotify', 'beatport'];
const BATCH = '20261124013000001';

async function startSimulator(delayMs = 0): Promise<StoreSimulator> {
  // No periodic full scans: the folder watches and the incomplete-batch checks must find every batch.
  const simulator = createStoreSimulator({
    root,
    keys: KEYS,
    validator,
    delayMs,
    pollMs: 20,
    fullScanEvery: 1e9,
  });
  simulators.push(simulator);
  await simulator.start();
  return simulator;
}

const transport = (key = 'spotify') => createLocalTransport({ root: path.join(root, key) });
const ackDir = (key = 'spotify') => path.join(root, key, 'acknowledgements');
const acks = (key = 'spotify') => {
  try {
    return readdirSync(ackDir(key)).sort();
  } catch {
    return [];
  }
};
const readAck = (name: string, key = 'spotify'): StoreAcknowledgement =>
  parseAcknowledgement(readFileSync(path.join(ackDir(key), name), 'utf8'));

async function settle(simulator: StoreSimulator) {
  await simulator.poll();
  await simulator.drain();
}

test('a good batch is acknowledged FileOK once, even when the simulator restarts', async () => {
  const simulator = await startSimulator();
  const release = sourceRelease(sources, '0196000000012');
  await transport().deliver(releaseBatch(release, { batchId: BATCH }));
  await settle(simulator);

  expect(acks()).toEqual([`ACK_${BATCH}_msg-0196000000012.xml`]);
  const ack = readAck(`ACK_${BATCH}_msg-0196000000012.xml`);
  expect(ack).toMatchObject({
    batchId: BATCH,
    messageId: 'msg-0196000000012',
    fileName: '0196000000012/0196000000012.xml',
    fileStatus: 'FileOK',
    releaseStatus: 'SuccessfullyIngestedByReleaseDistributor',
    manualCheckRequired: false,
    releaseIds: ['0196000000012'],
  });
  expect(ack.errorText).toBeUndefined();
  const ackFile = path.join(ackDir(), `ACK_${BATCH}_msg-0196000000012.xml`);
  const written = readFileSync(ackFile, 'utf8');
  // The data folder's rules: owner-only files and folders.
  expect(statSync(ackFile).mode & 0o777).toBe(0o600);
  expect(statSync(ackDir()).mode & 0o777).toBe(0o700);

  // Polled again, stopped, started afresh: the batch is not ingested a second time.
  await settle(simulator);
  await simulator.stop();
  const again = await startSimulator();
  await settle(again);
  expect(acks()).toEqual([`ACK_${BATCH}_msg-0196000000012.xml`]);
  expect(readFileSync(ackFile, 'utf8')).toBe(written);
  // Delivering the same batch again (a pipeline retry) changes nothing either.
  await transport().deliver(releaseBatch(release, { batchId: BATCH }));
  await settle(again);
  expect((await again.stats('spotify')).batches).toEqual([
    expect.objectContaining({
      batchId: BATCH,
      folder: `N_${BATCH}`,
      messageIds: ['msg-0196000000012'],
      releaseIds: ['0196000000012'],
      complete: true,
      outcome: 'FileOK',
    }),
  ]);
  expect(readFileSync(ackFile, 'utf8')).toBe(written);
});

test("a restart after the acks were written but before the batch was recorded keeps the store's answer", async () => {
  const simulator = await startSimulator();
  await simulator.configure('spotify', { mode: 'reject', times: 1 });
  const release = sourceRelease(sources, '0196000000111');
  await transport().deliver(releaseBatch(release, { batchId: BATCH }));
  await settle(simulator);
  await simulator.stop();
  const ackFile = path.join(ackDir(), `ACK_${BATCH}_msg-0196000000111.xml`);
  const written = readFileSync(ackFile, 'utf8');
  // The crash window: the record of the batch never reached the disk.
  writeFileSync(path.join(root, 'spotify', '.simulator', 'ingested.jsonl'), '');

  const again = await startSimulator();
  await settle(again);
  expect(readFileSync(ackFile, 'utf8')).toBe(written);
  expect((await again.stats('spotify')).batches).toEqual([
    expect.objectContaining({ batchId: BATCH, outcome: 'Rejected' }),
  ]);
});

test('nothing happens before BatchComplete lands', async () => {
  const simulator = await startSimulator();
  const release = sourceRelease(sources, '0196000000029');
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const delivery = transport().deliver(releaseBatch(release, { batchId: BATCH, manifestGate: gate }));
  // Every file but the manifest is on the store now; the transport waits on the manifest's bytes.
  const master = path.join(
    root,
    'spotify',
    `N_${BATCH}`,
    '0196000000029',
    'resources',
    '0196000000029_T2_Image.jpg',
  );
  for (let i = 0; i < 100 && !statSync(master, { throwIfNoEntry: false }); i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  await settle(simulator);
  await new Promise((r) => setTimeout(r, 60));
  await settle(simulator);
  expect(acks()).toEqual([]);
  expect((await simulator.stats('spotify')).batches).toEqual([
    expect.objectContaining({
      batchId: BATCH,
      complete: false,
      outcome: 'incomplete',
      releaseIds: ['0196000000029'],
    }),
  ]);

  open();
  await delivery;
  await settle(simulator);
  expect(acks()).toEqual([`ACK_${BATCH}_msg-0196000000029.xml`]);
  expect((await simulator.stats('spotify')).batches[0]).toMatchObject({ complete: true, outcome: 'FileOK' });
});

test('the delay holds the acknowledgement back', async () => {
  const simulator = await startSimulator(300);
  await transport().deliver(releaseBatch(sourceRelease(sources, '0196000000036'), { batchId: BATCH }));
  await simulator.poll();
  expect((await simulator.stats('spotify')).batches[0]).toMatchObject({ complete: true, outcome: 'pending' });
  expect(acks()).toEqual([]);
  const started = Date.now();
  await simulator.drain();
  expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  expect(acks()).toHaveLength(1);
});

test('a corrupted resource is acknowledged ResourceCorrupt, naming the file; a missing one ResourceMissing', async () => {
  const simulator = await startSimulator();
  const release = sourceRelease(sources, '0196000000043');
  const [audio] = release.resources as [{ uri: string; file: string; size: number }];
  corrupt(audio.file, audio.size);
  await transport().deliver(releaseBatch(release, { batchId: BATCH }));
  const other = sourceRelease(path.join(sources, 'b'), '0196000000050');
  await transport('beatport').deliver(
    releaseBatch(other, { batchId: '20261124013000002', omit: ['resources/0196000000050_T2_Image.jpg'] }),
  );
  await settle(simulator);

  const ack = readAck(`ACK_${BATCH}_msg-0196000000043.xml`);
  expect(ack).toMatchObject({
    fileStatus: 'ResourceCorrupt',
    releaseStatus: 'ProcessingErrorAtReleaseDistributor',
    manualCheckRequired: false,
  });
  expect(ack.errorText).toMatch(
    /^resources\/0196000000043_T1_SoundRecording\.flac: SHA-256 [0-9a-f]{64} is not the message's/,
  );

  const missing = readAck('ACK_20261124013000002_msg-0196000000050.xml', 'beatport');
  expect(missing).toMatchObject({ fileStatus: 'ResourceMissing', manualCheckRequired: false });
  expect(missing.errorText).toBe('resources/0196000000050_T2_Image.jpg: the file is missing');
  expect((await simulator.stats('spotify')).batches[0]?.outcome).toBe('ResourceCorrupt');
});

test('a configured reject answers the next batch with the reason, then the store accepts again', async () => {
  const simulator = await startSimulator();
  await simulator.configure('spotify', { mode: 'reject', times: 1, reason: 'Cover art contains a URL.' });
  const release = sourceRelease(sources, '0196000000067');
  await transport().deliver(releaseBatch(release, { batchId: BATCH }));
  await settle(simulator);
  expect(readAck(`ACK_${BATCH}_msg-0196000000067.xml`)).toMatchObject({
    fileStatus: 'FileOK',
    releaseStatus: 'ProcessingErrorAtReleaseDistributor',
    errorText: 'Cover art contains a URL.',
    manualCheckRequired: true,
  });
  expect(simulator.behaviour('spotify')).toMatchObject({ mode: 'accept' });

  await transport().deliver(releaseBatch(release, { batchId: '20261124013000009' }));
  await settle(simulator);
  expect(readAck('ACK_20261124013000009_msg-0196000000067.xml')).toMatchObject({
    releaseStatus: 'SuccessfullyIngestedByReleaseDistributor',
    manualCheckRequired: false,
  });
  expect((await simulator.stats('spotify')).batches.map((b) => b.outcome)).toEqual(['Rejected', 'FileOK']);
});

test('a configured fail asks for a resend until told otherwise, and survives a restart', async () => {
  const simulator = await startSimulator();
  await simulator.configure('beatport', { mode: 'fail' });
  const release = sourceRelease(sources, '0196000000074');
  await transport('beatport').deliver(releaseBatch(release, { batchId: BATCH }));
  await settle(simulator);
  const ack = readAck(`ACK_${BATCH}_msg-0196000000074.xml`, 'beatport');
  expect(ack).toMatchObject({
    releaseStatus: 'ProcessingErrorAtReleaseDistributor',
    manualCheckRequired: false,
  });
  expect(ack.errorText).toMatch(/Please redeliver/);

  await simulator.stop();
  const again = await startSimulator();
  expect(again.behaviour('beatport')).toEqual({ mode: 'fail', times: 0, reason: '' });
  await transport('beatport').deliver(releaseBatch(release, { batchId: '20261124013000010' }));
  await settle(again);
  expect(readAck('ACK_20261124013000010_msg-0196000000074.xml', 'beatport').manualCheckRequired).toBe(false);
  expect((await again.stats('beatport')).batches.map((b) => b.outcome)).toEqual([
    'ProcessingError',
    'ProcessingError',
  ]);
  // Spotify was never told anything.
  expect(again.behaviour('spotify')).toEqual({ mode: 'accept', times: 0, reason: '' });
});

test("an invalid message is acknowledged SchemaValidationError with the validator's words", async () => {
  const simulator = await startSimulator();
  const release = sourceRelease(sources, '0196000000081');
  await transport().deliver(
    releaseBatch(release, { batchId: BATCH, editXml: (xml) => xml.replace(/<ISRC>[^<]*<\/ISRC>/, '') }),
  );
  await settle(simulator);
  const ack = readAck(`ACK_${BATCH}_msg-0196000000081.xml`);
  expect(ack).toMatchObject({
    fileStatus: 'SchemaValidationError',
    releaseStatus: 'ProcessingErrorAtReleaseDistributor',
    manualCheckRequired: true,
  });
  expect(ack.errorText).toMatch(
    /^0196000000081\/0196000000081\.xml: line \d+: Element 'ResourceId': .*no ISRC/,
  );
});

test('a message file that is not the one the manifest hashed is ResourceCorrupt', async () => {
  const simulator = await startSimulator(50);
  const release = sourceRelease(sources, '0196000000098');
  await transport().deliver(releaseBatch(release, { batchId: BATCH }));
  // Replaced after BatchComplete, before the store looked.
  const message = path.join(root, 'spotify', `N_${BATCH}`, '0196000000098', '0196000000098.xml');
  writeFileSync(message, `${readFileSync(message, 'utf8')}\n`);
  await settle(simulator);
  expect(readAck(`ACK_${BATCH}_msg-0196000000098.xml`)).toMatchObject({
    fileStatus: 'ResourceCorrupt',
    errorText: expect.stringMatching(/0196000000098\.xml: SHA-256 [0-9a-f]{64} is not the manifest's/),
  });
});

test('the poll timer finds batches by itself, also one whose BatchComplete comes later', async () => {
  await startSimulator();
  const release = sourceRelease(sources, '0196000000104');
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const delivery = transport().deliver(releaseBatch(release, { batchId: BATCH, manifestGate: gate }));
  await new Promise((r) => setTimeout(r, 100));
  expect(acks()).toEqual([]);
  open();
  await delivery;
  await transport('beatport').deliver(releaseBatch(release, { batchId: '20261124013000002' }));
  for (let i = 0; i < 250 && acks().length + acks('beatport').length < 2; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(acks()).toEqual([`ACK_${BATCH}_msg-0196000000104.xml`]);
  expect(acks('beatport')).toEqual(['ACK_20261124013000002_msg-0196000000104.xml']);
});

test('a store ingests its batches in batch-id order, whatever order they landed in', async () => {
  const simulator = createStoreSimulator({ root, keys: KEYS, validator, delayMs: 0, pollMs: 60_000 });
  simulators.push(simulator);
  await simulator.start();
  await simulator.configure('spotify', { mode: 'reject', times: 1 });
  const release = sourceRelease(sources, '0196000000128');
  // The later batch lands first; both are there when the store looks.
  await transport().deliver(releaseBatch(release, { batchId: '20261124013000020' }));
  await transport().deliver(releaseBatch(release, { batchId: '20261124013000010' }));
  await settle(simulator);
  // Only the first batch ingested met the configured rejection: it must be the earlier one.
  expect((await simulator.stats('spotify')).batches.map((b) => [b.batchId, b.outcome])).toEqual([
    ['20261124013000010', 'Rejected'],
    ['20261124013000020', 'FileOK'],
  ]);
});
