// What royalties knows of Omni's recordings: whose each ISRC and UPC is and what it is called, as catalog
// answered when a statement line was matched. Kept so that analytics can name a track and the Finder can
// ask plays per ISRC without asking catalog again; catalog stays the owner of the facts (a title changed
// there shows here at the next match). The only reader and writer of `recordings`.
import type { Doc, DocumentStore } from '@omni/platform';

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

  constructor(store: DocumentStore) {
    this.collection = store.collection<RecordingDoc>(RECORDINGS, {
      indexes: [{ fields: { ownerId: 1 } }, { fields: { releaseId: 1 } }],
    });
  }

  async remember(found: RecordingDoc[]) {
    for (const { _id, ...rest } of found)
      await this.collection.updateOne({ _id }, { $set: rest }, { upsert: true });
  }

  ofOwner(ownerId: string) {
    return this.collection.find({ ownerId });
  }
}
