// Play counts an account supplied (ImportPlays CSV), one document per account: an import replaces the
// previous one whole, so a scan never mixes two uploads. Kept as rows per ISRC for the scan's lookups.
import type { Doc, DocumentStore } from '@omni/platform';
import type { PlayCount } from '../domain/scan-model';

export const PLAYS = 'play_counts';

interface PlaysDoc extends Doc {
  user_id: string;
  imported_at: string;
  rows: PlayCount[];
}

export class PlaysRepository {
  private readonly plays;

  constructor(store: DocumentStore) {
    this.plays = store.collection<PlaysDoc>(PLAYS);
  }

  async replace(userId: string, rows: PlayCount[]): Promise<void> {
    await this.plays.updateOne(
      { _id: userId },
      { $set: { user_id: userId, imported_at: new Date().toISOString(), rows } },
      { upsert: true },
    );
  }

  /** The account's plays grouped by ISRC (empty when it never imported any). */
  async byIsrc(userId: string): Promise<Map<string, PlayCount[]>> {
    const doc = await this.plays.findById(userId);
    const out = new Map<string, PlayCount[]>();
    for (const row of doc?.rows ?? []) {
      const list = out.get(row.isrc);
      if (list) list.push(row);
      else out.set(row.isrc, [row]);
    }
    return out;
  }
}
