// The fingerprint index of every recording Omni has been given (the rights check), in the documents store:
//   delivery_fingerprint_keys  one document per recording: its sampled 28-bit keys (domain/fingerprint
//                              indexKeys, ≈ 16 per 30 s) in a multikey index, with whose recording it is.
//                              A lookup of a query's keys ($in on the index) returns only recordings that
//                              share a key — never a scan of all of them.
//   delivery_fingerprints      one document per recording: its whole raw fingerprint (uint32 LE, base64),
//                              read only for the few candidates being verified.
import type { Collection, Doc, DocumentStore } from '@omni/platform';

export const FINGERPRINT_KEYS = 'delivery_fingerprint_keys';
export const FINGERPRINTS = 'delivery_fingerprints';

export interface RecordingRef {
  /** `<releaseId>:<track number>` (1-based, play order). */
  recordingId: string;
  ownerId: string;
  releaseId: string;
  track: number;
  title: string;
}

export interface FingerprintKeysDoc extends Doc {
  keys: number[];
  ownerId: string;
  releaseId: string;
  track: number;
  title: string;
  seconds: number;
}

interface FingerprintDoc extends Doc {
  items: string;
}

export interface Candidate extends RecordingRef {
  /** How many of the query's keys the recording has. */
  hits: number;
}

export function encodeItems(items: readonly number[]): string {
  return Buffer.from(Uint32Array.from(items).buffer).toString('base64');
}

export function decodeItems(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  const out = new Array<number>(bytes.length >> 2);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readUInt32LE(i * 4);
  return out;
}

/** Keys per $in lookup (the SQLite adapter turns each into index seeks). */
const LOOKUP_BATCH = 200;

export class FingerprintIndex {
  private readonly keys: Collection<FingerprintKeysDoc>;
  private readonly prints: Collection<FingerprintDoc>;

  constructor(store: DocumentStore) {
    this.keys = store.collection<FingerprintKeysDoc>(FINGERPRINT_KEYS, {
      indexes: [{ fields: { keys: 1 } }, { fields: { releaseId: 1 } }],
    });
    this.prints = store.collection<FingerprintDoc>(FINGERPRINTS);
  }

  /** Adds (or replaces) a recording; its keys are the domain's indexKeys of `items`. */
  async put(ref: RecordingRef, keys: number[], items: readonly number[], seconds: number): Promise<void> {
    const doc = {
      keys,
      ownerId: ref.ownerId,
      releaseId: ref.releaseId,
      track: ref.track,
      title: ref.title,
      seconds,
    };
    await this.prints.updateOne(
      { _id: ref.recordingId },
      { $set: { items: encodeItems(items) } },
      { upsert: true },
    );
    await this.keys.updateOne({ _id: ref.recordingId }, { $set: doc }, { upsert: true });
  }

  /** Loads many recordings at once (the bench's generated index); all or nothing per batch. */
  async putMany(
    entries: Array<{ ref: RecordingRef; keys: number[]; items: readonly number[]; seconds: number }>,
  ): Promise<void> {
    await this.prints.insertMany(
      entries.map((e) => ({ _id: e.ref.recordingId, items: encodeItems(e.items) })),
    );
    await this.keys.insertMany(
      entries.map((e) => ({
        _id: e.ref.recordingId,
        keys: e.keys,
        ownerId: e.ref.ownerId,
        releaseId: e.ref.releaseId,
        track: e.ref.track,
        title: e.ref.title,
        seconds: e.seconds,
      })),
    );
  }

  /** Recordings sharing at least `minHits` of `queryKeys`, most shared first, at most `limit`. */
  async candidates(
    queryKeys: readonly number[],
    options: { minHits?: number; limit?: number } = {},
  ): Promise<Candidate[]> {
    const wanted = new Set(queryKeys);
    const found = new Map<string, Candidate>();
    const list = [...wanted];
    for (let at = 0; at < list.length; at += LOOKUP_BATCH) {
      const docs = await this.keys.find({ keys: { $in: list.slice(at, at + LOOKUP_BATCH) } });
      for (const doc of docs) {
        if (found.has(doc._id)) continue;
        let hits = 0;
        for (const key of doc.keys) if (wanted.has(key)) hits++;
        found.set(doc._id, {
          recordingId: doc._id,
          ownerId: doc.ownerId,
          releaseId: doc.releaseId,
          track: doc.track,
          title: doc.title,
          hits,
        });
      }
    }
    return [...found.values()]
      .filter((c) => c.hits >= (options.minHits ?? 2))
      .sort((a, b) => b.hits - a.hits)
      .slice(0, options.limit ?? 10);
  }

  async items(recordingId: string): Promise<number[] | null> {
    const doc = await this.prints.findById(recordingId);
    return doc ? decodeItems(doc.items) : null;
  }

  /** Removes a release's recordings (withdrawn, or replaced by a resubmission). */
  async removeRelease(releaseId: string): Promise<void> {
    const docs = await this.keys.find({ releaseId });
    for (const doc of docs) await this.prints.deleteOne({ _id: doc._id });
    await this.keys.deleteMany({ releaseId });
  }

  count(): Promise<number> {
    return this.keys.count();
  }
}
