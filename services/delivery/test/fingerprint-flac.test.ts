// Speed variants of a FLAC master (issue 27): B uploads A's master 4 % faster as a FLAC (the sped-up song
// rendered as a stereo WAV, encoded by the provisioned flac), and the check decodes it once to an owner-only
// temporary WAV, plays that at the speeds that undo ±2/4/6 %, finds A's recording at ≈0.96 and removes the
// WAV afterwards — also when a speed fails or the FLAC does not decode. Without the flac tool the check runs
// as before (speed 1 only: a FLAC copy as is is still held) and says why in the result.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DocumentStore } from '@omni/platform';
import { createSqliteDocumentStore } from '@omni/platform/src/adapters/documents-sqlite';
import { SAME_RECORDING } from '../src/domain/fingerprint';
import { FpcalcFingerprinter } from '../src/providers/fingerprinter/fpcalc';
import { FingerprintError, type Fingerprinter } from '../src/providers/fingerprinter/port';
import { FingerprintIndex } from '../src/store/fingerprints';
import { checkMaster, fingerprintMaster, registerMaster } from '../src/use-cases/check-fingerprint';
import { encodeFlac, flacMissing } from './support/flac';
import { stereoSong } from './support/synth-out-of-process';
import type { SongOptions } from './support/synth-song';

const missing = new FpcalcFingerprinter().missing() ?? flacMissing();
const describeIfTools = missing ? describe.skip : describe;
if (missing) console.log(`SKIPPED FLAC fingerprint suite: ${missing}`);

describeIfTools('fingerprint check of FLAC masters at other speeds', () => {
  let dir: string;
  let temp: string;
  let store: DocumentStore;
  let index: FingerprintIndex;
  let fingerprinter: FpcalcFingerprinter;
  const A = { ownerId: 'artist-a', releaseId: 'release-a' };
  const B = { ownerId: 'artist-b', releaseId: 'release-b' };

  /** The song as a stereo WAV (24-bit when asked), encoded to FLAC by the provisioned flac. */
  const flacSong = (name: string, options: SongOptions, bits: 16 | 24 = 16) => {
    const wav = join(dir, `${name}.wav`);
    const stereo = stereoSong(wav, options);
    writeFileSync(wav, bits === 24 ? to24(stereo) : stereo);
    return encodeFlac(wav, join(dir, `${name}.flac`));
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'omni-fingerprint-flac-'));
    temp = join(dir, 'decoded');
    mkdirSync(temp);
    fingerprinter = new FpcalcFingerprinter(undefined, { tempDir: temp });
    store = createSqliteDocumentStore({ dataDir: dir, fsync: false });
    index = new FingerprintIndex(store);
    const own = join(dir, 'a.wav');
    writeFileSync(own, stereoSong(own, { seed: 1, seconds: 60 }));
    const print = await fingerprinter.fingerprint(own);
    await registerMaster(index, { ...A, recordingId: 'release-a:1', track: 1, title: 'A song' }, print);
  }, 300_000);

  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds B’s FLAC of A’s master sped up by 4 %, decoding it once to an owner-only WAV removed after', async () => {
    const file = flacSong('fast', { seed: 1, seconds: 60, speed: 1.04 });
    const seen = new Set<string>();
    const spy: Fingerprinter = {
      tool: fingerprinter.tool,
      missing: () => fingerprinter.missing(),
      limits: () => fingerprinter.limits(),
      wavForSpeeds: jest.fn((f: string) => fingerprinter.wavForSpeeds(f)),
      fingerprint: (f, options) => {
        if (f !== file) {
          seen.add(f);
          expect(statSync(f).mode & 0o777).toBe(0o600);
          expect(statSync(dirname(f)).mode & 0o777).toBe(0o700);
        }
        return fingerprinter.fingerprint(f, options);
      },
    };
    const result = await checkMaster({ fingerprinter: spy, index }, file, B);
    expect(spy.wavForSpeeds).toHaveBeenCalledTimes(1);
    expect(seen.size).toBe(1);
    expect([...seen][0]?.startsWith(temp)).toBe(true);
    expect(result.master.queries).toHaveLength(7);
    expect(result.master.speedsSkipped).toBeUndefined();
    const top = result.matches[0];
    expect(top).toMatchObject({ releaseId: 'release-a', track: 1, decision: 'hold' });
    expect(top?.score).toBeGreaterThanOrEqual(SAME_RECORDING);
    expect(top?.speed).toBeCloseTo(1 / 1.04, 3);
    expect(readdirSync(temp)).toEqual([]);
  }, 180_000);

  it('holds a 24-bit FLAC slowed by 4 % (the decoded WAV keeps 24 bits)', async () => {
    const file = flacSong('slow24', { seed: 1, seconds: 60, speed: 0.96 }, 24);
    const top = (await checkMaster({ fingerprinter, index }, file, B)).matches[0];
    expect(top).toMatchObject({ releaseId: 'release-a', decision: 'hold' });
    expect(top?.speed).toBeCloseTo(1 / 0.96, 3);
    expect(readdirSync(temp)).toEqual([]);
  }, 180_000);

  it('removes the decoded WAV when a speed fails, and when the FLAC does not decode', async () => {
    const file = flacSong('again', { seed: 1, seconds: 20 });
    const failing: Fingerprinter = {
      ...fingerprinter,
      limits: () => null,
      missing: () => null,
      wavForSpeeds: (f) => fingerprinter.wavForSpeeds(f),
      fingerprint: async (f, options) => {
        if ((options?.speed ?? 1) < 0.97) throw new FingerprintError('fpcalc failed (a test)');
        return fingerprinter.fingerprint(f, options);
      },
    };
    await expect(fingerprintMaster(failing, file)).rejects.toThrow('a test');
    expect(readdirSync(temp)).toEqual([]);

    const broken = join(dir, 'broken.flac');
    writeFileSync(broken, Buffer.concat([Buffer.from('fLaC'), readFileSync(file).subarray(4, 2000)]));
    const input = await fingerprinter.wavForSpeeds(broken);
    expect(input.wav).toBeNull();
    expect(input.why).toContain('flac could not decode it');
    expect(readdirSync(temp)).toEqual([]);
  }, 180_000);

  it('without the flac tool checks a FLAC at its own speed only, and says so', async () => {
    const noFlac = new FpcalcFingerprinter(undefined, { flac: null, tempDir: temp });
    expect(noFlac.limits()).toContain('the flac tool is not provisioned');
    const fast = await checkMaster(
      { fingerprinter: noFlac, index },
      flacSong('fast2', { seed: 1, seconds: 60, speed: 1.04 }),
      B,
    );
    expect(fast.master.queries.map((q) => q.speed)).toEqual([1]);
    expect(fast.master.speedsSkipped).toContain('FLAC masters are fingerprinted as uploaded only');
    expect(fast.matches.some((m) => m.decision === 'hold')).toBe(false);
    const copy = await checkMaster(
      { fingerprinter: noFlac, index },
      flacSong('copy', { seed: 1, seconds: 60 }),
      B,
    );
    expect(copy.matches[0]).toMatchObject({ releaseId: 'release-a', decision: 'hold', speed: 1 });
  }, 180_000);
});

/** A 16-bit stereo WAV (44-byte header) as 24-bit: the same samples, 8 bits lower. */
function to24(wav: Buffer): Buffer {
  const samples = (wav.length - 44) / 2;
  const data = Buffer.alloc(samples * 3);
  for (let i = 0; i < samples; i++) data.writeIntLE(wav.readInt16LE(44 + i * 2) * 256, i * 3, 3);
  const header = Buffer.from(wav.subarray(0, 44));
  header.writeUInt32LE(36 + data.length, 4);
  header.writeUInt32LE(44_100 * 6, 28);
  header.writeUInt16LE(6, 32);
  header.writeUInt16LE(24, 34);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
