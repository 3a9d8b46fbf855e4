// Acoustic fingerprints, the pure part: which 32-bit Chromaprint items go into the index, how two raw
// fingerprints are compared at their best alignment, and what a score decides. The method follows AcoustID
// (acoustid/pg_acoustid: acoustid_compare.c, match_fingerprints2; facts in shared/design/rights.md): offsets
// voted by equal high bits, then the bit error rate over the aligned part.

/** Seconds per raw item: Chromaprint's frame step, 4096/3 samples at 11,025 Hz. */
export const ITEM_SECONDS = 1365 / 11025;

/** Chromaprint's item for digital silence (acoustid_extract_query drops it). */
export const SILENCE = 627964279;

/** The high bits of an item that are its index key (AcoustID searches 28). */
export const KEY_BITS = 28;
/**
 * Content-defined sampling: an item's key is indexed only when its hash falls in 1/KEY_SAMPLE of the space,
 * the same rule for the stored recording and for the query, so both keep the same items wherever the upload
 * starts (a cut, an excerpt) without storing every item of every recording.
 */
export const KEY_SAMPLE = 8;
/** Chunks of the fingerprint the index covers each on its own, so every part of a recording can be found. */
export const CHUNK_ITEMS = Math.round(30 / ITEM_SECONDS);
/** At least this many keys per chunk (the lowest hashes are added when the sample gave fewer). */
export const MIN_KEYS_PER_CHUNK = 12;

/** Score ≥ this: the same recording. Another owner's → the release is held for an admin. */
export const SAME_RECORDING = 0.9;
/** Score in [this, SAME_RECORDING): a finding to look at (an edit, a remaster, a sample). */
export const LOOK_AT = 0.4;

/** Speeds a re-upload may have been changed by (pitch and tempo together); the query undoes each. */
export const SPEED_VARIANTS = [0.94, 0.96, 0.98, 1.02, 1.04, 1.06] as const;

export function indexKey(item: number): number {
  return (item >>> (32 - KEY_BITS)) >>> 0;
}

function mix(key: number): number {
  // A 32-bit integer hash (murmur3's finaliser): the sample must not follow the key's own bit patterns.
  let h = key >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The keys a fingerprint puts in (or looks up in) the index: sampled by content, chunk by chunk. */
export function indexKeys(items: readonly number[]): number[] {
  const keys = new Set<number>();
  for (let start = 0; start < items.length; start += CHUNK_ITEMS) {
    const chunk: Array<{ key: number; hash: number }> = [];
    let taken = 0;
    for (let i = start; i < Math.min(items.length, start + CHUNK_ITEMS); i++) {
      const item = items[i] ?? 0;
      if (item === SILENCE) continue;
      const key = indexKey(item);
      const hash = mix(key);
      if (hash % KEY_SAMPLE === 0) {
        if (!keys.has(key)) taken++;
        keys.add(key);
      } else chunk.push({ key, hash });
    }
    if (taken < MIN_KEYS_PER_CHUNK) {
      chunk.sort((a, b) => a.hash - b.hash);
      for (const { key } of chunk) {
        if (taken >= MIN_KEYS_PER_CHUNK) break;
        if (!keys.has(key)) taken++;
        keys.add(key);
      }
    }
  }
  return [...keys];
}

/** Every key a query looks up: its sampled keys, and all its keys when it is short (a few seconds). */
export function queryKeys(items: readonly number[]): number[] {
  const keys = new Set(indexKeys(items));
  for (const item of items) {
    if (item === SILENCE) continue;
    const key = indexKey(item);
    if (mix(key) % KEY_SAMPLE === 0) keys.add(key);
  }
  return [...keys];
}

function popcount(x: number): number {
  let v = x >>> 0;
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export interface Alignment {
  /** Final score in [0, 1]: similarity × the share of the query the alignment covers. */
  score: number;
  /** 1 − 2 × bit error rate over the aligned items (0 for unrelated audio, 1 for identical). */
  similarity: number;
  /** Items of the query covered by the stored recording at this offset. */
  overlap: number;
  /** Where the query starts in the stored recording, in items (negative: before it). */
  offsetItems: number;
  offsetSeconds: number;
  /** Per 30 s chunk of the query: the similarity of that part at the offset (partial reuse shows here). */
  chunks: number[];
}

const MATCH_BITS = 14;
const MAX_OFFSET_CANDIDATES = 4;

/**
 * Compares a query with a stored fingerprint at the offsets equal 14-bit prefixes vote for (AcoustID's
 * match_fingerprints2), keeping the best. Null when no offset has enough votes (< 2 % of the query's
 * distinct items, at least 3) — unrelated audio.
 */
export function align(query: readonly number[], stored: readonly number[]): Alignment | null {
  if (!query.length || !stored.length) return null;
  const positions = new Map<number, number[]>();
  for (let j = 0; j < stored.length; j++) {
    const item = stored[j] ?? 0;
    if (item === SILENCE) continue;
    const key = item >>> (32 - MATCH_BITS);
    const list = positions.get(key);
    if (!list) positions.set(key, [j]);
    else if (list.length < 64) list.push(j);
  }
  const votes = new Map<number, number>();
  const distinct = new Set<number>();
  for (let i = 0; i < query.length; i++) {
    const item = query[i] ?? 0;
    if (item === SILENCE) continue;
    const key = item >>> (32 - MATCH_BITS);
    distinct.add(key);
    for (const j of positions.get(key) ?? []) votes.set(j - i, (votes.get(j - i) ?? 0) + 1);
  }
  // Neighbouring offsets vote together (a resampled query drifts by an item or two).
  const ranked = [...votes.entries()]
    .map(
      ([offset, n]) =>
        [offset, n + ((votes.get(offset - 1) ?? 0) + (votes.get(offset + 1) ?? 0)) / 2] as const,
    )
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_OFFSET_CANDIDATES);
  const needed = Math.max(3, 0.02 * distinct.size);
  let best: Alignment | null = null;
  for (const [offset, n] of ranked) {
    if (n < needed) break;
    const candidate = alignAt(query, stored, offset);
    if (candidate && (!best || candidate.score > best.score)) best = candidate;
  }
  return best;
}

/** The comparison at one offset (stored item = query item + offset). */
export function alignAt(
  query: readonly number[],
  stored: readonly number[],
  offset: number,
): Alignment | null {
  const from = Math.max(0, -offset);
  const to = Math.min(query.length, stored.length - offset);
  if (to <= from) return null;
  let errors = 0;
  let counted = 0;
  const chunks: number[] = [];
  let chunkErrors = 0;
  let chunkCounted = 0;
  const closeChunk = () => {
    if (chunkCounted) chunks.push(Math.max(0, 1 - (2 * chunkErrors) / (32 * chunkCounted)));
    chunkErrors = 0;
    chunkCounted = 0;
  };
  for (let i = from; i < to; i++) {
    if (i > from && (i - from) % CHUNK_ITEMS === 0) closeChunk();
    const a = query[i] ?? 0;
    const b = stored[i + offset] ?? 0;
    if (a === SILENCE && b === SILENCE) continue;
    const e = popcount((a ^ b) >>> 0);
    errors += e;
    counted++;
    chunkErrors += e;
    chunkCounted++;
  }
  closeChunk();
  if (!counted) return null;
  const similarity = Math.max(0, 1 - (2 * errors) / (32 * counted));
  const overlap = to - from;
  return {
    score: similarity * Math.min(1, overlap / query.length),
    similarity,
    overlap,
    offsetItems: offset,
    offsetSeconds: Math.round(offset * ITEM_SECONDS * 100) / 100,
    chunks: chunks.map((c) => Math.round(c * 1000) / 1000),
  };
}

export type MatchDecision = 'hold' | 'look-at' | 'same-owner-duplicate' | 'none';

/** What a score against a recording decides, given whose recording it is. */
export function decide(score: number, sameOwner: boolean): MatchDecision {
  if (score >= SAME_RECORDING) return sameOwner ? 'same-owner-duplicate' : 'hold';
  if (score >= LOOK_AT) return sameOwner ? 'none' : 'look-at';
  return 'none';
}
