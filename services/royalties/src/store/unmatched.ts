// Statement lines whose ISRC/UPC no Omni recording or release carries: they wait here, one document per
// line, until an admin attaches them to a recording or marks them as not ours. The only reader and writer
// of `unmatched_lines` and of their summary, `unmatched_groups`. Lines of an import still being read are
// 'staged' (not shown); publishing the import opens them.
//
// The summary: one document per (status, identifier) shown — lines, quantity, amount, stores, imports,
// what the stores call it — and, while an import is read, one per (import, identifier) staged. Every write
// of lines changes the summary in the same transaction, so the queue's screen reads a few hundred group
// documents and a totals document, never the lines (a million waiting lines took the list past the
// gateway's deadline). Publishing an import folds its staged groups into the open ones; a refused import's
// staged groups go with its lines. Data written before the summary existed has no totals document: the
// first transaction that needs the summary builds it from the lines, once, before changing anything
// (store/release-counts.ts in delivery does the same for its counts).
//
// Long walks (opening or discarding a million lines, resolving an identifier, the first build) go a batch
// at a time and let the event loop run between batches: the embedded store's reads and writes are
// synchronous, so a loop of them with only microtask awaits kept every other request waiting. Inside a
// transaction that changes nothing of its semantics: the embedded store keeps the writing connection for
// the whole transaction (other writes queue, reads see what was committed), MongoDB's session does the same.
import { randomUUID } from 'node:crypto';
import type { Doc, DocumentStore, TransactionScope } from '@omni/platform';
import type { StatementLine } from '../domain/statements/line';

export const UNMATCHED = 'unmatched_lines';
export const UNMATCHED_GROUPS = 'unmatched_groups';
export const UNMATCHED_RESOLUTIONS = 'unmatched_resolutions';

/**
 * Documents opened, discarded or resolved per write: a file of codes Omni does not know stages one per
 * line, and reading them all at once (the store's updateMany and deleteMany read every match) took ~600 MB
 * for a million lines.
 */
export const BATCH = 2000;
/** Group documents read or written per query. */
const GROUP_BATCH = 500;
/** Groups of each status the queue lists at most (the biggest amounts); the totals count them all. */
export const LIST_LIMIT = 500;
const TOTALS = 'totals';

/** Lets the event loop run (timers, sockets) before the next batch. */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

export type UnmatchedStatus = 'staged' | 'open' | 'attached' | 'not_ours';
export type ShownStatus = Exclude<UnmatchedStatus, 'staged'>;
export const SHOWN: readonly ShownStatus[] = ['open', 'attached', 'not_ours'];

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

/** What a group of lines is and counts, stored (UnmatchedGroupDoc) or as a change in memory (GroupDelta). */
interface GroupFields {
  status: UnmatchedStatus;
  identifier: string;
  kind: UnmatchedDoc['kind'];
  /** Staged groups only: the import still being read. */
  importId?: string;
  lines: number;
  quantity: number;
  /** What the stores call it, from the first line. */
  title: string;
  artist: string;
}

/** The lines of one status and identifier (and, staged, of one import), summed. */
export interface UnmatchedGroupDoc extends Doc, GroupFields {
  /** Nano-units, as a decimal string. */
  amount: string;
  /** The amount as text that sorts as the number does: the list reads the biggest first. */
  rank: string;
  stores: string[];
  imports: string[];
}

export interface StatusTotals {
  groups: number;
  lines: number;
  /** Nano-units, as a decimal string. */
  amount: string;
}
interface TotalsDoc extends Doc, Record<ShownStatus, StatusTotals> {}

/** An identifier being attached or marked not ours, a batch at a time (one at a time per identifier). */
export interface ResolutionDoc extends Doc, ResolutionClaim {
  moved: number;
  /** This claim's own id: a run whose claim was taken over stops at its next batch. */
  claimId: string;
  startedAt: string;
  /** Written with every batch: a resolution whose process died is taken over once this is old. */
  heartbeatAt: string;
}
export interface ResolutionClaim {
  /** The identifier: a second resolution of it waits for this one. */
  _id: string;
  action: 'attach' | 'not_ours';
  to: string;
  /** Where attached lines go, as catalog answered when the admin asked (a resumed run asks nobody). */
  target: { ownerId: string; releaseId: string; trackId: string } | null;
  resolvedBy: string;
  /** The open lines when the admin asked. */
  lines: number;
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

const RANK_DIGITS = 30;
const RANK_SPAN = 10n ** BigInt(RANK_DIGITS);
/** '1' + digits for amounts ≥ 0, '0' + the complement for negative ones: text order is number order. */
export function rankOf(amount: bigint): string {
  return amount >= 0n
    ? `1${amount.toString().padStart(RANK_DIGITS, '0')}`
    : `0${(RANK_SPAN + amount).toString().padStart(RANK_DIGITS, '0')}`;
}

export const groupIdOf = (status: UnmatchedStatus, identifier: string, importId?: string) =>
  status === 'staged' ? `staged|${importId}|${identifier}` : `${status}|${identifier}`;

/** A change to one group: lines added (or, negative, taken out), in memory. */
interface GroupDelta extends GroupFields {
  amount: bigint;
  stores: Set<string>;
  imports: Set<string>;
}

class GroupDeltas {
  readonly byId = new Map<string, GroupDelta>();

  /** `sign` -1 takes the line out of the group (resolving moves it to another). */
  add(
    status: UnmatchedStatus,
    importId: string,
    doc: Pick<UnmatchedDoc, 'identifier' | 'kind'> & {
      line: Pick<StatementLine, 'quantity' | 'store' | 'title' | 'artist'> & { amountAcct: string | bigint };
    },
    sign: 1 | -1 = 1,
  ) {
    const id = groupIdOf(status, doc.identifier, importId);
    let g = this.byId.get(id);
    if (!g) {
      g = {
        status,
        identifier: doc.identifier,
        kind: doc.kind,
        importId: status === 'staged' ? importId : undefined,
        lines: 0,
        quantity: 0,
        amount: 0n,
        title: doc.line.title,
        artist: doc.line.artist,
        stores: new Set(),
        imports: new Set(),
      };
      this.byId.set(id, g);
    }
    g.lines += sign;
    g.quantity += sign * doc.line.quantity;
    g.amount += BigInt(sign) * BigInt(doc.line.amountAcct);
    if (sign > 0) {
      g.stores.add(doc.line.store);
      g.imports.add(importId);
    }
  }
}

const emptyTotals = (): TotalsDoc => ({
  _id: TOTALS,
  open: { groups: 0, lines: 0, amount: '0' },
  attached: { groups: 0, lines: 0, amount: '0' },
  not_ours: { groups: 0, lines: 0, amount: '0' },
});

const sortedUnion = (a: readonly string[], b: ReadonlySet<string>) =>
  b.size === 0 ? [...a] : [...new Set([...a, ...b])].sort();

export interface UnmatchedSummary {
  /** Up to LIST_LIMIT groups of each status, the biggest amount first. */
  groups: UnmatchedGroupDoc[];
  totals: Record<ShownStatus, StatusTotals>;
  /** Identifiers being resolved now. */
  resolving: ResolutionDoc[];
}

export class UnmatchedRepository {
  readonly collection;
  readonly groups;
  readonly resolutions;
  /** The totals document was seen committed: the summary exists (it is never removed). */
  private summarized = false;

  constructor(private readonly store: DocumentStore) {
    this.collection = store.collection<UnmatchedDoc>(UNMATCHED, {
      // (status, identifier, _id): an identifier's lines a batch at a time (resolving, the first build).
      indexes: [{ fields: { status: 1, identifier: 1, _id: 1 } }, { fields: { importId: 1, _id: 1 } }],
    });
    this.groups = store.collection<UnmatchedGroupDoc>(UNMATCHED_GROUPS, {
      indexes: [{ fields: { status: 1, rank: 1 } }, { fields: { importId: 1, _id: 1 } }],
    });
    this.resolutions = store.collection<ResolutionDoc>(UNMATCHED_RESOLUTIONS);
  }

  /** Builds the summary now if data written before it has none (the first list, or at start). */
  async ready(): Promise<void> {
    if (this.summarized) return;
    if (await this.groups.findById(TOTALS)) {
      this.summarized = true;
      return;
    }
    await this.store.transaction((scope) => this.summary(scope));
  }

  /** The queue as its screen shows it: never more than LIST_LIMIT groups of a status, never a line. */
  async list(limit = LIST_LIMIT): Promise<UnmatchedSummary> {
    await this.ready();
    const groups: UnmatchedGroupDoc[] = [];
    for (const status of SHOWN)
      groups.push(...(await this.groups.find({ status }, { sort: { rank: -1 }, limit })));
    const totals = (await this.groups.findById(TOTALS)) as TotalsDoc | null;
    const resolving = await this.resolving();
    const { _id: _, ...counted } = totals ?? emptyTotals();
    return { groups, totals: counted, resolving };
  }

  /** Writes a chunk's waiting lines (staged) and their groups; `done()` once the chunk's lines are all added. */
  async staging(scope: TransactionScope, importId: string) {
    await this.summary(scope);
    const deltas = new GroupDeltas();
    const lines = scope.collection<UnmatchedDoc>(UNMATCHED);
    return {
      add: async (batch: readonly StatementLine[]) => {
        if (batch.length === 0) return;
        const docs = batch.map((line) => ({
          _id: `${importId}:${line.lineNo}`,
          importId,
          ...identifierOf(line),
          status: 'staged' as const,
          line: storedLine(line),
        }));
        for (const d of docs) deltas.add('staged', importId, d);
        await lines.insertMany(docs);
        await breathe();
      },
      done: () => this.apply(scope, deltas),
    };
  }

  /** Shows the import's staged lines and groups (in the import's last transaction), a batch at a time. */
  async open(scope: TransactionScope, importId: string) {
    await this.summary(scope);
    const c = scope.collection<UnmatchedDoc>(UNMATCHED);
    for await (const _id of this.batches(scope, importId)) {
      await c.updateMany({ importId, _id, status: 'staged' }, { $set: { status: 'open' } });
      await breathe();
    }
    for await (const staged of this.stagedGroups(scope, importId)) {
      const deltas = new GroupDeltas();
      for (const g of staged) {
        const open: GroupDelta = {
          ...g,
          status: 'open',
          importId: undefined,
          amount: BigInt(g.amount),
          stores: new Set(g.stores),
          imports: new Set(g.imports),
        };
        deltas.byId.set(groupIdOf('open', g.identifier), open);
      }
      await this.apply(scope, deltas);
      await scope
        .collection<UnmatchedGroupDoc>(UNMATCHED_GROUPS)
        .deleteMany({ _id: { $in: staged.map((g) => g._id) } });
    }
  }

  /** Removes a refused import's staged lines and groups, a batch at a time. */
  async discardStaged(scope: TransactionScope, importId: string) {
    await this.summary(scope);
    const c = scope.collection<UnmatchedDoc>(UNMATCHED);
    for await (const _id of this.batches(scope, importId)) {
      await c.deleteMany({ importId, _id, status: 'staged' });
      await breathe();
    }
    for await (const staged of this.stagedGroups(scope, importId))
      await scope
        .collection<UnmatchedGroupDoc>(UNMATCHED_GROUPS)
        .deleteMany({ _id: { $in: staged.map((g) => g._id) } });
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

  /** The import's staged groups, GROUP_BATCH at a time (the caller removes each batch before the next). */
  private async *stagedGroups(scope: TransactionScope, importId: string) {
    const c = scope.collection<UnmatchedGroupDoc>(UNMATCHED_GROUPS);
    let after = '';
    for (;;) {
      const batch = await c.find({ importId, _id: { $gt: after } }, { sort: { _id: 1 }, limit: GROUP_BATCH });
      if (batch.length === 0) return;
      yield batch;
      after = batch.at(-1)!._id;
      await breathe();
    }
  }

  /** The open group of an identifier (null: nothing waits under it). */
  async openGroup(identifier: string): Promise<UnmatchedGroupDoc | null> {
    await this.ready();
    return this.groups.findById(groupIdOf('open', identifier));
  }

  /** The first `limit` open lines of an identifier (by _id), read in the resolving transaction. */
  openBatch(scope: TransactionScope, identifier: string, limit = BATCH) {
    return scope
      .collection<UnmatchedDoc>(UNMATCHED)
      .find({ status: 'open', identifier }, { sort: { _id: 1 }, limit });
  }

  /**
   * Marks open lines attached or not ours and moves them from their open group to the resolved one. Every
   * line must still be open: otherwise this throws, and the caller's transaction changes nothing.
   */
  async resolve(
    scope: TransactionScope,
    lines: readonly UnmatchedDoc[],
    set: { status: 'attached' | 'not_ours'; resolvedBy: string; attachedTo?: string },
  ) {
    if (lines.length === 0) return;
    await this.summary(scope);
    const result = await scope
      .collection<UnmatchedDoc>(UNMATCHED)
      .updateMany(
        { _id: { $in: lines.map((l) => l._id) }, status: 'open' },
        { $set: { ...set, resolvedAt: new Date().toISOString() } },
      );
    if (result.matched !== lines.length)
      throw new Error(`${lines.length - result.matched} of the lines were no longer open`);
    const deltas = new GroupDeltas();
    for (const l of lines) {
      deltas.add('open', l.importId, l, -1);
      deltas.add(set.status, l.importId, l);
    }
    await this.apply(scope, deltas);
  }

  /**
   * Claims an identifier for a resolution; null when another one holds it (its process alive: a heartbeat
   * within `staleMs`). A claim whose process died is taken over.
   */
  claim(claim: ResolutionClaim, staleMs: number): Promise<ResolutionDoc | null> {
    return this.store.transaction(async (scope) => {
      const c = scope.collection<ResolutionDoc>(UNMATCHED_RESOLUTIONS);
      const held = await c.findById(claim._id);
      if (held && Date.now() - Date.parse(held.heartbeatAt) < staleMs) return null;
      const now = new Date().toISOString();
      const doc: ResolutionDoc = {
        ...claim,
        moved: 0,
        claimId: randomUUID(),
        startedAt: now,
        heartbeatAt: now,
      };
      if (held) await c.deleteOne({ _id: claim._id });
      await c.insertOne(doc);
      return doc;
    });
  }

  /** Whether the claim is still the identifier's (not finished, not taken over), in the batch's transaction. */
  async holds(scope: TransactionScope, claim: Pick<ResolutionDoc, '_id' | 'claimId'>) {
    const held = await scope.collection<ResolutionDoc>(UNMATCHED_RESOLUTIONS).findById(claim._id);
    return held?.claimId === claim.claimId;
  }

  /** A resolution's progress, in the transaction of its batch. */
  async progress(scope: TransactionScope, identifier: string, moved: number) {
    await scope
      .collection<ResolutionDoc>(UNMATCHED_RESOLUTIONS)
      .updateOne({ _id: identifier }, { $inc: { moved }, $set: { heartbeatAt: new Date().toISOString() } });
  }

  finish(scope: TransactionScope, identifier: string) {
    return scope.collection<ResolutionDoc>(UNMATCHED_RESOLUTIONS).deleteOne({ _id: identifier });
  }

  /** Resolutions under way (a restart resumes them). */
  resolving() {
    return this.resolutions.find({});
  }

  /**
   * Adds each change to its group document (created, changed, or removed once it holds no line) and the
   * shown ones to the totals. A few hundred groups per read.
   */
  private async apply(scope: TransactionScope, deltas: GroupDeltas) {
    if (deltas.byId.size === 0) return;
    const c = scope.collection<UnmatchedGroupDoc>(UNMATCHED_GROUPS);
    const totals = new Map<ShownStatus, { groups: number; lines: number; amount: bigint }>();
    const entries = [...deltas.byId];
    for (let i = 0; i < entries.length; i += GROUP_BATCH) {
      const part = entries.slice(i, i + GROUP_BATCH);
      const found = new Map(
        (await c.find({ _id: { $in: part.map(([id]) => id) } })).map((d) => [d._id, d] as const),
      );
      const fresh: UnmatchedGroupDoc[] = [];
      for (const [id, d] of part) {
        const old = found.get(id);
        const lines = (old?.lines ?? 0) + d.lines;
        const amount = (old ? BigInt(old.amount) : 0n) + d.amount;
        if (d.status !== 'staged') {
          const t = totals.get(d.status) ?? { groups: 0, lines: 0, amount: 0n };
          t.lines += d.lines;
          t.amount += d.amount;
          t.groups += (lines > 0 ? 1 : 0) - (old ? 1 : 0);
          totals.set(d.status, t);
        }
        if (lines <= 0) {
          if (old) await c.deleteOne({ _id: id });
          continue;
        }
        const fields = {
          lines,
          quantity: (old?.quantity ?? 0) + d.quantity,
          amount: amount.toString(),
          rank: rankOf(amount),
          stores: sortedUnion(old?.stores ?? [], d.stores),
          imports: sortedUnion(old?.imports ?? [], d.imports),
        };
        if (old) await c.updateOne({ _id: id }, { $set: fields });
        else
          fresh.push({
            _id: id,
            status: d.status,
            identifier: d.identifier,
            kind: d.kind,
            ...(d.importId === undefined ? {} : { importId: d.importId }),
            title: d.title,
            artist: d.artist,
            ...fields,
          });
      }
      if (fresh.length > 0) await c.insertMany(fresh);
    }
    if (totals.size === 0) return;
    const was = ((await c.findById(TOTALS)) as TotalsDoc | null) ?? emptyTotals();
    const set = {} as Record<ShownStatus, StatusTotals>;
    for (const status of SHOWN) {
      const t = totals.get(status);
      set[status] = t
        ? {
            groups: was[status].groups + t.groups,
            lines: was[status].lines + t.lines,
            amount: (BigInt(was[status].amount) + t.amount).toString(),
          }
        : was[status];
    }
    await c.updateOne({ _id: TOTALS }, { $set: set }, { upsert: true });
  }

  /**
   * The summary as this transaction sees it: built from the lines when data written before it has none
   * (once; in the transaction that first needs it, so a crash or a concurrent write cannot leave it
   * wrong). Walks the (status, identifier, _id) index an identifier at a time, BATCH lines per read.
   */
  private async summary(scope: TransactionScope) {
    if (this.summarized) return;
    const c = scope.collection<UnmatchedGroupDoc>(UNMATCHED_GROUPS);
    if (await c.findById(TOTALS)) {
      this.summarized = true;
      return;
    }
    const lines = scope.collection<UnmatchedDoc>(UNMATCHED);
    let deltas = new GroupDeltas();
    for (const status of ['staged', ...SHOWN] as const) {
      let identifier: string | undefined;
      for (;;) {
        const [next] = await lines.find(
          identifier === undefined ? { status } : { status, identifier: { $gt: identifier } },
          { sort: { identifier: 1 }, limit: 1 },
        );
        if (!next) break;
        identifier = next.identifier;
        let after = '';
        for (;;) {
          const batch = await lines.find(
            { status, identifier, _id: { $gt: after } },
            { sort: { _id: 1 }, limit: BATCH },
          );
          for (const l of batch) deltas.add(status, l.importId, l);
          if (batch.length < BATCH) break;
          after = batch.at(-1)!._id;
          await breathe();
        }
        if (deltas.byId.size >= GROUP_BATCH) {
          await this.apply(scope, deltas);
          deltas = new GroupDeltas();
        }
      }
    }
    await this.apply(scope, deltas);
    // The totals document says the summary exists, even over no line.
    const { _id: _, ...empty } = emptyTotals();
    await c.updateOne({ _id: TOTALS }, { $setOnInsert: empty }, { upsert: true });
  }
}
