// Whose each statement line is: catalog is asked once per chunk for the codes not seen yet in this import
// (a report repeats the same few thousand recordings over a million lines), by ISRC first, then by UPC
// (a line for a whole release, or a recording the store names only by its release).
import type { PromiseClient } from '@omni/platform';
import type { catalog } from '@omni/proto';
import type { LedgerLine } from '../domain/ledger-line';
import type { StatementLine } from '../domain/statements/line';
import type { RecordingDoc, RecordingsRepository } from '../store/recordings';

type Codes = Pick<StatementLine, 'isrc' | 'upc'>;
type Catalog = Pick<PromiseClient<typeof catalog.CatalogServiceService>, 'findRecordings'>;

/** Codes kept per import before the cache starts over (memory stays flat on any catalogue). */
const CACHE_LIMIT = 200_000;
const LOOKUP_BATCH = 1000;

export class Matcher {
  private readonly known = new Map<string, RecordingDoc | null>();

  constructor(
    private readonly catalog: Catalog,
    private readonly recordings: RecordingsRepository,
  ) {}

  async match(lines: readonly StatementLine[]) {
    await this.lookUp(lines);
    const matched: LedgerLine[] = [];
    const unmatched: StatementLine[] = [];
    for (const line of lines) {
      const found = this.recordingOf(line);
      if (!found) {
        unmatched.push(line);
        continue;
      }
      // The line becomes the ledger's in place: a spread of a 20-field object per line cost more than
      // reading it (bench:royalties).
      const owned = line as LedgerLine;
      owned.ownerId = found.ownerId;
      owned.releaseId = found.releaseId;
      owned.trackId = found.kind === 'isrc' ? found.trackId : '';
      matched.push(owned);
    }
    return { matched, unmatched };
  }

  /** Whose each pair of codes is (an import's chunk, grouped by code): the recording, or null. */
  async whose(codes: readonly Codes[]): Promise<Array<RecordingDoc | null>> {
    await this.lookUp(codes);
    return codes.map((c) => this.recordingOf(c));
  }

  /** By ISRC first, then by UPC (a line for a whole release, or a recording named by its release). */
  private recordingOf(c: Codes): RecordingDoc | null {
    return (c.isrc && this.known.get(c.isrc)) || (c.upc && this.known.get(c.upc)) || null;
  }

  /** One code to a recording, as catalog answers it now (an admin attaching lines). */
  async find(code: string): Promise<RecordingDoc | null> {
    this.known.delete(code);
    const isIsrc = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/.test(code.toUpperCase());
    await this.ask(isIsrc ? [code.toUpperCase()] : [], isIsrc ? [] : [code]);
    return this.known.get(isIsrc ? code.toUpperCase() : code) ?? null;
  }

  private async lookUp(lines: readonly Codes[]) {
    if (this.known.size > CACHE_LIMIT) this.known.clear();
    const isrcs = new Set<string>();
    const upcs = new Set<string>();
    for (const l of lines) {
      if (l.isrc && !this.known.has(l.isrc)) isrcs.add(l.isrc);
      if (l.upc && !this.known.has(l.upc)) upcs.add(l.upc);
    }
    const i = [...isrcs];
    const u = [...upcs];
    for (let n = 0; n < Math.max(i.length, u.length); n += LOOKUP_BATCH)
      await this.ask(i.slice(n, n + LOOKUP_BATCH), u.slice(n, n + LOOKUP_BATCH));
  }

  private async ask(isrcs: string[], upcs: string[]) {
    if (isrcs.length === 0 && upcs.length === 0) return;
    const { found } = await this.catalog.findRecordings({ isrcs, upcs });
    const now = new Date().toISOString();
    const docs: RecordingDoc[] = found.map((f) => ({
      _id: f.code,
      kind: f.trackId ? 'isrc' : 'upc',
      ownerId: f.ownerId,
      releaseId: f.releaseId,
      releaseTitle: f.releaseTitle,
      trackId: f.trackId,
      trackTitle: f.trackTitle,
      isrc: f.isrc,
      upc: f.upc,
      artistName: f.artistName,
      seenAt: now,
    }));
    for (const code of [...isrcs, ...upcs]) this.known.set(code, null);
    for (const d of docs) this.known.set(d._id, d);
    await this.recordings.remember(docs);
  }
}
