// What royalties knows of Omni's recordings: whose each ISRC and UPC is and what it is called, as catalog
// answered when a statement line was matched. Kept so that analytics can name a track and the Finder can
// ask plays per ISRC without asking catalog again; catalog stays the owner of the facts (a title changed
// there shows here at the next match). The only reader and writer of `recordings`.
import { type Doc, type DocumentStore, DuplicateKeyError } from '@omni/platform';

export const RECORDINGS = 'recordings';

export interface RecordingDoc extends Doc {
  /** _id: the code asked (ISRC or UPC). */
  kind: 'isrc' | 'upc';
  ownerId: string;
  releaseId: string;
  releaseTitle: string;
  trackId: string;
  trackTitle: string;
  isrc: string;
  upc: string;
  artistName: string;
  seenAt: string;
}

export class RecordingsRepository {
  readonly collection;

  constructor(private readonly store: DocumentStore) {
    this.collection = store.collection<RecordingDoc>(RECORDINGS, {
      indexes: [{ fields: { ownerId: 1 } }, { fields: { releaseId: 1 } }],
    });
  }

  /**
   * Keeps what catalog answered. New codes go in with one insert (the common case: an import asks catalog
   * only for codes it has not seen); when some are known already, each is written on its own, in one
   * transaction (each write alone would wait for its own disk flush).
   */
  async remember(found: RecordingDoc[]) {
    if (found.length === 0) return;
    try {
      await this.collection.insertMany(found);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      await this.store.transaction(async (scope) => {
        const c = scope.collection<RecordingDoc>(RECORDINGS);
        for (const { _id, ...rest } of found) await c.updateOne({ _id }, { $set: rest }, { upsert: true });
      });
    }
  }

  ofOwner(ownerId: string) {
    return this.collection.find({ ownerId });
  }
}
