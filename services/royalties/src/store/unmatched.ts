// Statement lines whose ISRC/UPC no Omni recording or release carries: they wait here, one document per
// line, until an admin attaches them to a recording or marks them as not ours. The only reader and writer
// of `unmatched_lines`. Lines of an import still being read are 'staged' (not shown); publishing the
// import opens them.
import type { Doc, DocumentStore, TransactionScope } from '@omni/platform';
import type { StatementLine } from '../domain/statements/line';

export const UNMATCHED = 'unmatched_lines';

/**
 * Documents opened or discarded per statement: a file of codes Omni does not know stages one per line, and
 * reading them all at once (the store's updateMany and deleteMany read every match) took ~600 MB for a
 * million lines.
 */
const BATCH = 2000;

export type UnmatchedStatus = 'staged' | 'open' | 'attached' | 'not_ours';

export interface UnmatchedDoc extends Doc {
  importId: string;
  /** ISRC, else UPC, else '' (a line with neither). */
  identifier: string;
  kind: 'isrc' | 'upc' | 'none';
  status: UnmatchedStatus;
  line: Omit<StatementLine, 'amountTxn' | 'amountAcct'> & { amountTxn: string; amountAcct: string };
  resolvedBy?: string;
  resolvedAt?: string;
  /** For attached lines: where they went. */
  attachedTo?: string;
}

export const identifierOf = (line: Pick<StatementLine, 'isrc' | 'upc'>) =>
  line.isrc
    ? { identifier: line.isrc, kind: 'isrc' as const }
    : line.upc
      ? { identifier: line.upc, kind: 'upc' as const }
      : { identifier: '', kind: 'none' as const };

export const storedLine = (line: StatementLine): UnmatchedDoc['line'] => ({
  ...line,
  amountTxn: line.amountTxn.toString(),
  amountAcct: line.amountAcct.toString(),
});
export const lineOf = (stored: UnmatchedDoc['line']): StatementLine => ({
  ...stored,
  amountTxn: BigInt(stored.amountTxn),
  amountAcct: BigInt(stored.amountAcct),
});

export class UnmatchedRepository {
  readonly collection;

  constructor(store: DocumentStore) {
    this.collection = store.collection<UnmatchedDoc>(UNMATCHED, {
      indexes: [{ fields: { status: 1, identifier: 1 } }, { fields: { importId: 1, _id: 1 } }],
    });
  }

  stage(scope: TransactionScope, importId: string, lines: readonly StatementLine[]) {
    if (lines.length === 0) return Promise.resolve([]);
    return scope.collection<UnmatchedDoc>(UNMATCHED).insertMany(
      lines.map((line) => ({
        _id: `${importId}:${line.lineNo}`,
        importId,
        ...identifierOf(line),
        status: 'staged' as const,
        line: storedLine(line),
      })),
    );
  }

  /** Shows the import's staged lines (in the import's last transaction), a batch at a time. */
  async open(scope: TransactionScope, importId: string) {
    const c = scope.collection<UnmatchedDoc>(UNMATCHED);
    for await (const _id of this.batches(scope, importId))
      await c.updateMany({ importId, _id, status: 'staged' }, { $set: { status: 'open' } });
  }

  /** Removes a refused import's staged lines, a batch at a time. */
  async discardStaged(scope: TransactionScope, importId: string) {
    const c = scope.collection<UnmatchedDoc>(UNMATCHED);
    for await (const _id of this.batches(scope, importId))
      await c.deleteMany({ importId, _id, status: 'staged' });
  }

  /**
   * The import's lines as ranges of BATCH _ids, walked along the (importId, _id) index: each read stops at
   * its batch, and each batch is one range of that index.
   */
  private async *batches(scope: TransactionScope, importId: string) {
    const c = scope.collection<UnmatchedDoc>(UNMATCHED);
    let after = '';
    for (;;) {
      const [end] = await c.find(
        { importId, _id: { $gt: after } },
        { sort: { _id: 1 }, skip: BATCH - 1, limit: 1 },
      );
      if (!end) {
        const [last] = await c.find({ importId, _id: { $gt: after } }, { sort: { _id: -1 }, limit: 1 });
        if (last) yield { $gt: after, $lte: last._id };
        return;
      }
      yield { $gt: after, $lte: end._id };
      after = end._id;
    }
  }

  /** Every line not staged (open first is the screen's business). */
  visible() {
    return this.collection.find({ status: { $in: ['open', 'attached', 'not_ours'] } });
  }

  openFor(identifier: string, scope?: TransactionScope) {
    const c = scope ? scope.collection<UnmatchedDoc>(UNMATCHED) : this.collection;
    return c.find({ status: 'open', identifier });
  }

  resolve(
    scope: TransactionScope,
    ids: string[],
    set: { status: 'attached' | 'not_ours'; resolvedBy: string; attachedTo?: string },
  ) {
    return scope
      .collection<UnmatchedDoc>(UNMATCHED)
      .updateMany(
        { _id: { $in: ids }, status: 'open' },
        { $set: { ...set, resolvedAt: new Date().toISOString() } },
      );
  }
}
