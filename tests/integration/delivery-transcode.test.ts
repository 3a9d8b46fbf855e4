// A store that takes only FLAC (DATA_DIR/delivery/stores.json, the simulator's counterpart of a registry
// entry's `audio`) gets the WAV master transcoded: its ERN names a .flac resource (codec FLAC, the FLAC's
// own hash and size, the master's rate, bits and channels), the simulator verifies that file against the
// message and acknowledges it, two FLAC-only stores share ONE transcoded copy, and a store that takes WAV
// still gets the master as it is.
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFile } from 'music-metadata';
import {
  acknowledgementsOf,
  approve,
  createRealRelease,
  deliveryClient,
  startDeliveryPlatform,
} from './delivery.fixtures';
import { type ReleasePlatform, waitUntil } from './releases.fixtures';

let omni: ReleasePlatform;
let rpc: ReturnType<typeof deliveryClient>;
const artist = randomUUID();
const FLAC_ONLY = { audio: { accepts: ['flac'], transcodeTo: 'flac' } };

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'omni-transcode-'));
  mkdirSync(join(dataDir, 'delivery'), { recursive: true });
  writeFileSync(
    join(dataDir, 'delivery', 'stores.json'),
    JSON.stringify({ tidal: FLAC_ONLY, qobuz: FLAC_ONLY }),
  );
  omni = await startDeliveryPlatform(dataDir);
  rpc = deliveryClient(omni);
}, 60_000);
afterAll(async () => {
  rpc?.close();
  await omni?.close();
});

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

it('sends a FLAC-only store a FLAC made once from the WAV master, named and hashed in its ERN', async () => {
  const token = await omni.token(artist);
  const release = await createRealRelease(omni, artist, token, ['tidal', 'qobuz', 'spotify'], {}, 5);
  await approve(rpc, release.id);
  const jobs = await waitUntil(
    async () => {
      const { jobs } = await rpc.listJobs({ releaseId: release.id });
      return jobs.length === 3 && jobs.every((j) => j.status === 'live') ? jobs : undefined;
    },
    60_000,
    'every store live',
  );

  const flacs: string[] = [];
  for (const job of jobs) {
    const { xml } = await rpc.getErn({ releaseId: release.id, target: job.target });
    const resources = join(
      omni.dataDir,
      'delivery',
      'stores',
      job.target,
      `N_${job.batchId}`,
      release.upc,
      'resources',
    );
    const audio = readdirSync(resources).find((n) => n.includes('_SoundRecording.'))!;
    const file = join(resources, audio);
    const ext = job.target === 'spotify' ? 'wav' : 'flac';
    expect(audio).toMatch(new RegExp(`_SoundRecording\\.${ext}$`));
    expect(xml).toContain(`<URI>resources/${audio}</URI>`);
    expect(xml).toContain(`<AudioCodecType>${ext === 'flac' ? 'FLAC' : 'PCM'}</AudioCodecType>`);
    expect(xml).toContain(`<HashSumValue>${sha256(file)}</HashSumValue>`);
    expect(xml).toContain('<SamplingRate');
    const meta = await parseFile(file);
    expect(meta.format).toMatchObject({ sampleRate: 44_100, bitsPerSample: 16, numberOfChannels: 2 });
    expect(meta.format.duration).toBeCloseTo(5, 2);
    if (ext === 'flac') {
      expect(meta.format.container).toBe('FLAC');
      flacs.push(sha256(file));
    }
    // The simulator checked every file's size and hash named in the message before acknowledging it.
    const [ack] = acknowledgementsOf(omni.dataDir, job.target); // relative to the ack folder
    const ackXml = readFileSync(
      join(omni.dataDir, 'delivery', 'stores', job.target, 'acknowledgements', ack!),
      'utf8',
    );
    expect(ackXml).toContain('FileOK');
    expect(ackXml).toContain('SuccessfullyIngested');
  }
  // Both FLAC-only stores got the same bytes: one transcode, staged once beside the master.
  expect(flacs).toHaveLength(2);
  expect(flacs[0]).toBe(flacs[1]);
  const staging = join(omni.dataDir, 'delivery', 'staging');
  const staged = readdirSync(staging).filter((n) => !n.startsWith('.'));
  expect(staged).toContain(flacs[0]);
  expect(
    staged.filter((n) => readFileSync(join(staging, n)).subarray(0, 4).toString() === 'fLaC'),
  ).toHaveLength(1);
}, 90_000);
