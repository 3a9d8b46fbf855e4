// The rights check's foundation on generated songs (test/support/synth-song.ts): fpcalc as a child process,
// the key index in the embedded documents store, aligned verification, resampled-variant queries, and the
// decision thresholds. Artist A's master is indexed; B's uploads of it (as is, with noise, without its first
// 10 s, 4 % faster, 4 % slower, 40 s of it inside another song) are found with A's recording as evidence; a
// different song is not; A's own re-upload is a same-owner duplicate.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentStore } from '@omni/platform';
import { createSqliteDocumentStore } from '@omni/platform/src/adapters/documents-sqlite';
import { align, decide, indexKeys, LOOK_AT, SAME_RECORDING } from '../src/domain/fingerprint';
import { FpcalcFingerprinter } from '../src/providers/fingerprinter/fpcalc';
import { FingerprintIndex } from '../src/store/fingerprints';
import { checkMaster, registerMaster } from '../src/use-cases/check-fingerprint';
import { writeConcat, writeSong } from './support/synth-out-of-process';

const fingerprinter = new FpcalcFingerprinter();
const missing = fingerprinter.missing();
const describeIfFpcalc = missing ? describe.skip : describe;
if (missing) console.log(`SKIPPED fingerprint suite: ${missing}`);

describe('fingerprint domain', () => {
  it('decides by score and owner', () => {
    expect(decide(0.95, false)).toBe('hold');
    expect(decide(0.95, true)).toBe('same-owner-duplicate');
    expect(decide(0.6, false)).toBe('look-at');
    expect(decide(0.6, true)).toBe('none');
    expect(decide(0.2, false)).toBe('none');
    expect(SAME_RECORDING).toBe(0.9);
    expect(LOOK_AT).toBe(0.4);
  });

  it('aligns a shifted copy and scores unrelated items near 0', () => {
    let s = 7;
    const rand = () => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      return s;
    };
    const a = Array.from({ length: 600 }, rand);
    const b = Array.from({ length: 600 }, rand);
    const shifted = a.slice(50);
    const found = align(shifted, a);
    expect(found?.offsetItems).toBe(50);
    expect(found?.score).toBe(1);
    expect(align(b, a)?.score ?? 0).toBeLessThan(0.2);
    expect(indexKeys(a).length).toBeGreaterThan(20);
  });
});

describeIfFpcalc('fingerprint check through fpcalc and the index', () => {
  let dir: string;
  let store: DocumentStore;
  let index: FingerprintIndex;
  const A = { ownerId: 'artist-a', releaseId: 'release-a' };
  const B = { ownerId: 'artist-b', releaseId: 'release-b' };
  const song = (name: string, options: Parameters<typeof writeSong>[1]) =>
    writeSong(join(dir, `${name}.wav`), options);
  const check = (file: string, ref = B) => checkMaster({ fingerprinter, index }, file, ref);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'omni-fingerprint-'));
    store = createSqliteDocumentStore({ dataDir: dir, fsync: false });
    index = new FingerprintIndex(store);
    // A's master and nine other songs of other artists in the index.
    const own = await fingerprinter.fingerprint(song('a', { seed: 1, seconds: 60 }));
    await registerMaster(index, { ...A, recordingId: 'release-a:1', track: 1, title: 'A song' }, own);
    for (let seed = 10; seed < 19; seed++) {
      const print = await fingerprinter.fingerprint(song(`other-${seed}`, { seed, seconds: 40 }));
      const ref = {
        ownerId: `artist-${seed}`,
        releaseId: `release-${seed}`,
        track: 1,
        title: `Song ${seed}`,
      };
      await registerMaster(index, { ...ref, recordingId: `release-${seed}:1` }, print);
    }
  }, 300_000);

  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const expectHeldWithA = (result: Awaited<ReturnType<typeof check>>) => {
    const top = result.matches[0];
    expect(top).toMatchObject({ releaseId: 'release-a', track: 1, ownerId: 'artist-a', decision: 'hold' });
    expect(top?.score).toBeGreaterThanOrEqual(SAME_RECORDING);
    return top;
  };

  it('holds B’s upload of A’s master', async () => {
    const top = expectHeldWithA(await check(song('copy', { seed: 1, seconds: 60 })));
    expect(top?.score).toBeGreaterThan(0.99);
    expect(top?.offsetSeconds).toBe(0);
    expect(top?.speed).toBe(1);
  }, 180_000);

  it('holds a copy with noise added (−26 dB) and a quieter one', async () => {
    const noisy = expectHeldWithA(await check(song('noisy', { seed: 1, seconds: 60, noise: 0.05 })));
    expect(noisy?.score).toBeGreaterThan(0.95);
    expectHeldWithA(await check(song('quiet', { seed: 1, seconds: 60, gain: 0.3 })));
  }, 180_000);

  it('holds a copy with its first 10 s cut, at the offset of the cut', async () => {
    const top = expectHeldWithA(await check(song('cut', { seed: 1, seconds: 60, cutStart: 10 })));
    expect(top?.offsetSeconds).toBeGreaterThan(9.5);
    expect(top?.offsetSeconds).toBeLessThan(10.5);
  }, 180_000);

  it('holds copies sped up and slowed by 4 %, found by the resampled queries', async () => {
    const fast = expectHeldWithA(await check(song('fast', { seed: 1, seconds: 60, speed: 1.04 })));
    expect(fast?.speed).toBeCloseTo(1 / 1.04, 3);
    const slow = expectHeldWithA(await check(song('slow', { seed: 1, seconds: 60, speed: 0.96 })));
    expect(slow?.speed).toBeCloseTo(1 / 0.96, 3);
  }, 180_000);

  it('gives 40 s of A inside another song as a finding to look at, with the offset', async () => {
    const file = writeConcat(join(dir, 'excerpt.wav'), [
      { seed: 5, seconds: 20 },
      { seed: 1, seconds: 40 },
    ]);
    const top = (await check(file)).matches[0];
    expect(top).toMatchObject({ releaseId: 'release-a', decision: 'look-at' });
    expect(top?.score).toBeGreaterThanOrEqual(LOOK_AT);
    expect(top?.score).toBeLessThan(SAME_RECORDING);
    expect(top?.offsetSeconds).toBeCloseTo(-20, 0);
  }, 180_000);

  it('does not match a different song', async () => {
    const result = await check(song('different', { seed: 2, seconds: 60 }));
    expect(result.matches).toEqual([]);
  }, 180_000);

  it('points out A’s own re-upload as a duplicate, not a hold', async () => {
    const result = await check(song('again', { seed: 1, seconds: 60 }), {
      ownerId: 'artist-a',
      releaseId: 'release-a2',
    });
    expect(result.matches[0]).toMatchObject({ releaseId: 'release-a', decision: 'same-owner-duplicate' });
    expect(result.matches.some((m) => m.decision === 'hold')).toBe(false);
  }, 180_000);
});
