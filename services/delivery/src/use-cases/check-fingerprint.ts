// The rights check of one master: fingerprint it (fpcalc, a child process), at its own speed and at the
// speeds that undo a ±2/4/6 % re-upload; look each fingerprint's keys up in the index (candidates only, no
// scan); verify each candidate by aligned comparison; and say what the best match per recording decides.
// `register` then adds the master to the index, so later uploads are checked against it.
import {
  align,
  decide,
  indexKeys,
  type MatchDecision,
  queryKeys,
  SPEED_VARIANTS,
} from '../domain/fingerprint';
import type { Fingerprinter, RawFingerprint } from '../providers/fingerprinter/port';
import { FingerprintError, UnsupportedSpeedError } from '../providers/fingerprinter/port';
import type { FingerprintIndex, RecordingRef } from '../store/fingerprints';

export interface FingerprintMatch {
  recordingId: string;
  releaseId: string;
  track: number;
  title: string;
  ownerId: string;
  score: number;
  similarity: number;
  /** Where the master starts in the matched recording, seconds of the matched recording's time. */
  offsetSeconds: number;
  /** The speed the master was played at to match (1: as uploaded; 0.96: it had been sped up by 4 %). */
  speed: number;
  /** Similarity per 30 s chunk of the master at that offset (partial reuse shows as some chunks high). */
  chunks: number[];
  decision: MatchDecision;
}

export interface FingerprintedMaster {
  /** The master's own fingerprint (at speed 1), to register after the check. */
  print: RawFingerprint;
  /** The queries made: the speed and its fingerprint (speed 1 first). */
  queries: Array<{ speed: number; print: RawFingerprint }>;
  /** Set when the master was checked at speed 1 only: why, for the operator (e.g. flac not provisioned). */
  speedsSkipped?: string;
}

export interface FingerprintCheck {
  matches: FingerprintMatch[];
  /** Milliseconds in the index and comparisons (fpcalc's time not counted). */
  searchMs: number;
}

/** fpcalc runs at most this many at once (the machine's cores are shared with every service). */
const PARALLEL = 2;

/**
 * Fingerprints the master at speed 1 and at each speed that undoes a variant. Other speeds read a WAV: the
 * master itself, or (FLAC) one decode of it made before the lanes and removed after them.
 */
export async function fingerprintMaster(
  fingerprinter: Fingerprinter,
  file: string,
): Promise<FingerprintedMaster> {
  const speeds = [1, ...SPEED_VARIANTS.map((s) => 1 / s)];
  const queries: Array<{ speed: number; print: RawFingerprint } | null> = new Array(speeds.length).fill(null);
  const input = await fingerprinter.wavForSpeeds(file);
  let next = 0;
  const lane = async () => {
    while (next < speeds.length) {
      const at = next++;
      const speed = speeds[at] ?? 1;
      const source = speed === 1 ? file : input.wav;
      if (!source) continue;
      try {
        queries[at] = { speed, print: await fingerprinter.fingerprint(source, { speed }) };
      } catch (err) {
        if (!(err instanceof UnsupportedSpeedError)) throw err;
      }
    }
  };
  // Both lanes finish before the WAV is removed, even when one fails (the other may still be reading it).
  const ran = await Promise.allSettled(Array.from({ length: PARALLEL }, lane));
  await input.dispose();
  for (const r of ran) if (r.status === 'rejected') throw r.reason;
  const kept = queries.filter((q): q is { speed: number; print: RawFingerprint } => q !== null);
  const own = kept.find((q) => q.speed === 1);
  if (!own) throw new FingerprintError('the master could not be fingerprinted');
  return { print: own.print, queries: kept, ...(input.why ? { speedsSkipped: input.why } : {}) };
}

/**
 * Checks fingerprints against the index. `ref` is the master's own recording: recordings of the same
 * release are not matches (a resubmission replaces them).
 */
export async function searchIndex(
  index: FingerprintIndex,
  master: FingerprintedMaster,
  ref: Pick<RecordingRef, 'ownerId' | 'releaseId'>,
): Promise<FingerprintCheck> {
  const began = performance.now();
  const best = new Map<string, FingerprintMatch>();
  const cache = new Map<string, number[] | null>();
  for (const { speed, print } of master.queries) {
    const candidates = await index.candidates(queryKeys(print.items), { minHits: 2, limit: 10 });
    for (const candidate of candidates) {
      if (candidate.releaseId === ref.releaseId) continue;
      if (!cache.has(candidate.recordingId))
        cache.set(candidate.recordingId, await index.items(candidate.recordingId));
      const stored = cache.get(candidate.recordingId);
      if (!stored) continue;
      const alignment = align(print.items, stored);
      if (!alignment) continue;
      const previous = best.get(candidate.recordingId);
      if (previous && previous.score >= alignment.score) continue;
      best.set(candidate.recordingId, {
        recordingId: candidate.recordingId,
        releaseId: candidate.releaseId,
        track: candidate.track,
        title: candidate.title,
        ownerId: candidate.ownerId,
        score: Math.round(alignment.score * 1000) / 1000,
        similarity: Math.round(alignment.similarity * 1000) / 1000,
        offsetSeconds: alignment.offsetSeconds,
        speed: Math.round(speed * 10000) / 10000,
        chunks: alignment.chunks,
        decision: decide(alignment.score, candidate.ownerId === ref.ownerId),
      });
    }
  }
  const matches = [...best.values()].filter((m) => m.decision !== 'none').sort((a, b) => b.score - a.score);
  return { matches, searchMs: performance.now() - began };
}

/** Fingerprints a master and checks it: what review records as `fingerprint-match` findings. */
export async function checkMaster(
  deps: { fingerprinter: Fingerprinter; index: FingerprintIndex },
  file: string,
  ref: Pick<RecordingRef, 'ownerId' | 'releaseId'>,
): Promise<FingerprintCheck & { master: FingerprintedMaster }> {
  const master = await fingerprintMaster(deps.fingerprinter, file);
  return { ...(await searchIndex(deps.index, master, ref)), master };
}

/** Adds a checked master to the index. */
export async function registerMaster(
  index: FingerprintIndex,
  ref: RecordingRef,
  print: RawFingerprint,
): Promise<void> {
  await index.put(ref, indexKeys(print.items), print.items, print.duration);
}
