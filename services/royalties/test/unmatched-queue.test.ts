// The unmatched queue's summary on the embedded store, through the royalties gRPC handlers the gateway calls
// (listUnmatched, resolveUnmatched): groups summed to the nano-dollar as the lines would sum them, staged
// groups unseen until their import is published and gone with a refused import, the list capped to the
// biggest groups with every group counted, data written before the summary built from its lines, an
// identifier of thousands of lines resolved a batch at a time (ledger, summary, once only), and the event
// loop let run between batches.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type DocumentStore } from '@omni/platform';
import { createSqliteDocumentStore } from '@omni/platform/src/adapters/documents-sqlite';
import { unmatchedList } from '@omni/proto/api';
import { unpackLines } from '../src/domain/ledger-line';
import { formatAmount } from '../src/domain/money';
import type { StatementLine } from '../src/domain/statements/line';
import { royaltiesHandlers } from '../src/grpc/server';
import { ImportsRepository } from '../src/store/imports';
import { LedgerRepository } from '../src/store/ledger';
import { RecordingsRepository } from '../src/store/recordings';
import {
  BATCH,
  identifierOf,
  LIST_LIMIT,
  storedLine,
  UNMATCHED,
  UNMATCHED_GROUPS,
  type UnmatchedDoc,
  UnmatchedRepository,
} from '../src/store/unmatched';
import { Matcher } from '../src/use-cases/match-lines';
import { UnmatchedResolver } from '../src/use-cases/resolve-unmatched';
import { aStatementLine } from './support/statements';

const logger = createLogger({ level: 'silent' } as never);
const OWNER = 'u-label';
const ATTACH_TO = 'QZOMN2699999';

let dir: string;
let documents: DocumentStore;
let unmatched: UnmatchedRepository;
let ledger: LedgerRepository;
let resolver: UnmatchedResolver;
let grpc: ReturnType<typeof royaltiesHandlers>;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'omni-unmatched-'));
  documents = createSqliteDocumentStore({ dataDir: dir, logger, fsync: false });
  await documents.ready();
  const imports = new ImportsRepository(documents);
  ledger = new LedgerRepository(documents, (ids) => imports.publishedOf(ids));
  unmatched = new UnmatchedRepository(documents);
  const recordings = new RecordingsRepository(documents);
  const catalog = {
    findRecordings: async (req: { isrcs: string[] }) => ({
      found: req.isrcs
        .filter((code) => code === ATTACH_TO)
        .map((code) => ({
          code,
          ownerId: OWNER,
          releaseId: 'rel-1',
          releaseTitle: 'Back Catalogue',
          trackId: 'trk-1',
          trackTitle: 'One',
          isrc: code,
          upc: '',
          artistName: 'Label',
        })),
    }),
  };
  const matcher = () => new Matcher(catalog as never, recordings);
  resolver = new UnmatchedResolver({ documents, ledger, unmatched, matcher, logger }, { answerWithinMs: 0 });
  grpc = royaltiesHandlers({ documents, imports, ledger, unmatched, resolver, matcher } as never);
});
afterEach(async () => {
  await resolver.stop();
  await documents.close();
  rmSync(dir, { recursive: true, force: true });
});

const list = async () => {
  const { listJson } = await grpc.listUnmatched({}, {} as never);
  return unmatchedList.parse(JSON.parse(listJson));
};
const resolve = (identifier: string, action: 'attach' | 'not_ours', to = '') =>
  grpc.resolveUnmatched({ identifier, action, to, adminId: 'admin-1' }, {} as never);

/** Line `n` of a statement: amounts with nine decimals, some negative (a return). */
const lineOf = (n: number, isrc: string, store = 'Spotify', over: Partial<StatementLine> = {}) =>
  aStatementLine({
    lineNo: n,
    isrc,
    upc: '',
    store,
    title: `Song ${isrc}`,
    artist: 'Someone',
    quantity: n % 7 === 0 ? -1 : 3,
    amountAcct: BigInt(n % 7 === 0 ? -(n * 1_001) : n * 123_456_789 + 7),
    ...over,
  });

/** Stages an import's lines in chunks (one transaction each), as the import runner does. */
async function stage(importId: string, lines: StatementLine[], perChunk = 3000) {
  for (let i = 0; i < lines.length; i += perChunk)
    await documents.transaction(async (scope) => {
      const staging = await unmatched.staging(scope, importId);
      const chunk = lines.slice(i, i + perChunk);
      for (let j = 0; j < chunk.length; j += 700) await staging.add(chunk.slice(j, j + 700));
      await staging.done();
    });
}
const publish = (importId: string) => documents.transaction((scope) => unmatched.open(scope, importId));
const refuse = (importId: string) =>
  documents.transaction((scope) => unmatched.discardStaged(scope, importId));

/** What the screen should show, computed from every line document (what the list used to do). */
async function fromLines() {
  const docs = await documents.collection<UnmatchedDoc>(UNMATCHED).find({});
  const groups = new Map<
    string,
    { lines: number; quantity: number; amount: bigint; stores: Set<string>; imports: Set<string> }
  >();
  let open = 0;
  let amount = 0n;
  for (const d of docs) {
    if (d.status === 'staged') continue;
    const key = `${d.status}|${d.identifier}`;
    const g = groups.get(key) ?? {
      lines: 0,
      quantity: 0,
      amount: 0n,
      stores: new Set(),
      imports: new Set(),
    };
    g.lines += 1;
    g.quantity += d.line.quantity;
    g.amount += BigInt(d.line.amountAcct);
    g.stores.add(d.line.store);
    g.imports.add(d.importId);
    groups.set(key, g);
    if (d.status === 'open') {
      open += 1;
      amount += BigInt(d.line.amountAcct);
    }
  }
  return {
    open,
    amount: formatAmount(amount),
    groups: new Map(
      [...groups].map(([key, g]) => [
        key,
        {
          lines: g.lines,
          quantity: g.quantity,
          amount: formatAmount(g.amount),
          stores: [...g.stores].sort(),
          imports: [...g.imports].sort(),
        },
      ]),
    ),
  };
}

/** The list (uncapped here) agrees with the lines, group by group, to the nano-dollar. */
async function expectListEqualsLines() {
  const shown = await list();
  const truth = await fromLines();
  expect(shown.open).toBe(truth.open);
  expect(shown.amount).toBe(truth.amount);
  expect(new Map(shown.groups.map((g) => [`${g.status}|${g.identifier}`, g]))).toEqual(
    new Map(
      [...truth.groups].map(([key, g]) => [
        key,
        expect.objectContaining({ ...g, imports: expect.arrayContaining(g.imports) }),
      ]),
    ),
  );
  expect(shown.groups.length).toBe(truth.groups.size);
  return shown;
}

describe('the unmatched queue’s summary', () => {
  it('sums each identifier to the nano-dollar over imports and stores; staged lines show once published', async () => {
    const a = Array.from({ length: 2500 }, (_, i) =>
      lineOf(i + 1, `QZZZZ26${String(i % 40).padStart(5, '0')}`, i % 3 ? 'Spotify' : 'Deezer'),
    );
    const b = Array.from({ length: 900 }, (_, i) =>
      lineOf(i + 1, `QZZZZ26${String(i % 60).padStart(5, '0')}`, 'AppleMusic'),
    );
    await stage('imp-a', a);
    await stage('imp-b', b, 400);
    // Nothing published yet: nothing shows.
    expect(await list()).toEqual({
      groups: [],
      open: 0,
      amount: '0.00',
      counts: { open: 0, attached: 0, not_ours: 0 },
    });
    await publish('imp-a');
    const afterA = await expectListEqualsLines();
    expect(afterA.groups).toHaveLength(40);
    expect(afterA.open).toBe(2500);
    await publish('imp-b');
    const after = await expectListEqualsLines();
    expect(after.groups).toHaveLength(60);
    expect(after.counts).toEqual({ open: 60, attached: 0, not_ours: 0 });
    const first = after.groups.find((g) => g.identifier === 'QZZZZ2600000')!;
    expect(first).toMatchObject({
      kind: 'isrc',
      title: 'Song QZZZZ2600000',
      stores: ['AppleMusic', 'Deezer', 'Spotify'],
      imports: ['imp-a', 'imp-b'],
    });
    // Open groups, the biggest amount first.
    const amounts = after.groups.map((g) => Number(g.amount));
    expect(amounts).toEqual([...amounts].sort((x, y) => y - x));
    // No staged group is left behind once published.
    const staged = await documents
      .collection<{ _id: string; status: string }>(UNMATCHED_GROUPS)
      .find({ status: 'staged' });
    expect(staged).toEqual([]);
  });

  it('a refused import leaves no group, and the queue as it was', async () => {
    await stage('imp-a', [lineOf(1, 'QZZZZ2600001'), lineOf(2, 'QZZZZ2600002')]);
    await publish('imp-a');
    const before = await list();
    const refused = Array.from({ length: 4500 }, (_, i) =>
      lineOf(i + 1, `QZZZZ99${String(i).padStart(5, '0')}`),
    );
    refused.push(lineOf(4501, 'QZZZZ2600001'));
    await stage('imp-refused', refused);
    expect(await list()).toEqual(before);
    await refuse('imp-refused');
    expect(await list()).toEqual(before);
    const left = await documents
      .collection<{ _id: string }>(UNMATCHED_GROUPS)
      .find({ importId: 'imp-refused' });
    expect(left).toEqual([]);
    expect(await documents.collection(UNMATCHED).count({ importId: 'imp-refused' })).toBe(0);
  });

  it('lists at most LIST_LIMIT groups of a status, the biggest first, and counts them all', async () => {
    const n = LIST_LIMIT + 200;
    const lines = Array.from({ length: n }, (_, i) =>
      // Amounts that differ only past the cent, some negative: order by the nano-dollar.
      lineOf(i + 1, `QZZZZ77${String(i).padStart(5, '0')}`, 'Spotify', {
        amountAcct: BigInt(((i * 7919) % n) - 150) * 1_000_000_000n + BigInt(i % 10),
      }),
    );
    await stage('imp-many', lines);
    await publish('imp-many');
    const shown = await list();
    expect(shown.counts).toEqual({ open: n, attached: 0, not_ours: 0 });
    expect(shown.groups).toHaveLength(LIST_LIMIT);
    expect(shown.open).toBe(n);
    expect(shown.amount).toBe(formatAmount(lines.reduce((s, l) => s + l.amountAcct, 0n)));
    const biggest = lines
      .map((l) => l.amountAcct)
      .sort((x, y) => (y > x ? 1 : y < x ? -1 : 0))
      .slice(0, LIST_LIMIT)
      .map((a) => formatAmount(a));
    expect(shown.groups.map((g) => g.amount)).toEqual(biggest);
  });

  it('builds the summary once from lines written before it existed', async () => {
    // As the version before the summary wrote them: line documents only.
    const raw = documents.collection<UnmatchedDoc>(UNMATCHED);
    const make = (importId: string, status: UnmatchedDoc['status'], l: StatementLine): UnmatchedDoc => ({
      _id: `${importId}:${l.lineNo}`,
      importId,
      ...identifierOf(l),
      status,
      line: storedLine(l),
    });
    await raw.insertMany([
      ...Array.from({ length: 2300 }, (_, i) => make('old-1', 'open', lineOf(i + 1, `QZZZZ55${i % 3}0000`))),
      make('old-1', 'not_ours', lineOf(9001, 'QZZZZ5540000')),
      make('old-2', 'attached', lineOf(9002, 'QZZZZ5550000')),
      // An import being read when Omni was upgraded: its lines show once it is published.
      ...Array.from({ length: 5 }, (_, i) => make('old-3', 'staged', lineOf(i + 1, 'QZZZZ5500000'))),
    ]);
    const built = await expectListEqualsLines();
    expect(built.open).toBe(2300);
    expect(built.counts).toEqual({ open: 3, attached: 1, not_ours: 1 });
    await publish('old-3');
    const opened = await expectListEqualsLines();
    expect(opened.open).toBe(2305);
    // Built once: a second repository (a restart) finds it and adds to it.
    const again = new UnmatchedRepository(documents);
    await documents.transaction(async (scope) => {
      const staging = await again.staging(scope, 'new-1');
      await staging.add([lineOf(1, 'QZZZZ5500000')]);
      await staging.done();
    });
    await documents.transaction((scope) => again.open(scope, 'new-1'));
    expect((await expectListEqualsLines()).open).toBe(2306);
  });
});

describe('resolving an identifier', () => {
  const big = 'QZZZZ2688888';
  const bigLines = (count: number, from = 1) =>
    Array.from({ length: count }, (_, i) => lineOf(from + i, big, i % 2 ? 'Spotify' : 'Deezer'));

  it('attaches thousands of lines a batch at a time: all in the ledger to the nano, the summary moved, once', async () => {
    const count = 2 * BATCH + 345;
    const a = bigLines(count - 100);
    const b = bigLines(100, 50_000);
    await stage('imp-a', [...a, lineOf(999_999, 'QZZZZ2600042')]);
    await stage('imp-b', b);
    await publish('imp-a');
    await publish('imp-b');
    const before = await list();
    const group = before.groups.find((g) => g.identifier === big)!;
    expect(group.lines).toBe(count);

    const answer = await resolve(big, 'attach', ATTACH_TO);
    expect(answer.lines).toBe(count);
    // Twice at once is refused while it runs (the request answered before the lines all moved).
    await expect(resolve(big, 'not_ours')).rejects.toThrow(/being resolved already/);
    await resolver.idle();

    const after = await expectListEqualsLines();
    expect(after.groups.find((g) => g.identifier === big && g.status === 'open')).toBeUndefined();
    expect(after.groups.find((g) => g.identifier === big && g.status === 'attached')).toMatchObject({
      lines: count,
      amount: group.amount,
      quantity: group.quantity,
      stores: ['Deezer', 'Spotify'],
    });
    expect(after.open).toBe(1);
    expect(after.counts).toEqual({ open: 1, attached: 1, not_ours: 0 });

    // In the ledger: pages of at most a batch, every line once, summing to the group to the nano-dollar.
    const pages = await ledger.pages.find({ ownerId: OWNER });
    expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(count / BATCH));
    const attached = pages.flatMap((p) => unpackLines(p.lines));
    expect(attached).toHaveLength(count);
    expect(new Set(attached.map((l) => `${l.lineNo}`)).size).toBe(count);
    expect(formatAmount(attached.reduce((s, l) => s + l.amountAcct, 0n))).toBe(group.amount);
    const months = await ledger.monthsOf(OWNER);
    expect(formatAmount(months.reduce((s, m) => s + BigInt(m.amount), 0n))).toBe(group.amount);
    const refolded = await ledger.refold();
    for (const m of months) expect(refolded.months.get(m._id)?.amount.toString()).toBe(m.amount);

    // Again: nothing is waiting any more, nothing moves.
    await expect(resolve(big, 'attach', ATTACH_TO)).rejects.toThrow(/No lines are waiting/);
    expect(await ledger.pages.count({ ownerId: OWNER })).toBe(pages.length);
  });

  it('marks thousands of lines not ours, and a resolution cut off by a stop carries on after a restart', async () => {
    const count = 3 * BATCH + 10;
    await stage('imp-a', bigLines(count));
    await publish('imp-a');
    const group = (await list()).groups.find((g) => g.identifier === big)!;
    // Stopped after its first batch (the service going down).
    const first = resolver.resolve({ identifier: big, action: 'not_ours', to: '', adminId: 'admin-1' });
    await first;
    await resolver.stop();
    const midway = await expectListEqualsLines();
    const open = midway.groups.find((g) => g.identifier === big && g.status === 'open');
    const moved = midway.groups.find((g) => g.identifier === big && g.status === 'not_ours');
    expect((open?.lines ?? 0) + (moved?.lines ?? 0)).toBe(count);
    expect(open).toMatchObject({ lines: count - BATCH, resolving: { action: 'not_ours', to: '' } });
    expect(moved).toMatchObject({ lines: BATCH });

    // The restarted service resumes it.
    resolver = new UnmatchedResolver(
      { documents, ledger, unmatched, matcher: () => null as never, logger },
      { answerWithinMs: 0 },
    );
    await resolver.resume();
    await resolver.idle();
    const after = await expectListEqualsLines();
    expect(after.groups.filter((g) => g.identifier === big)).toEqual([
      expect.objectContaining({ status: 'not_ours', lines: count, amount: group.amount }),
    ]);
    expect(await ledger.pages.count({})).toBe(0);
    expect(await unmatched.resolving()).toEqual([]);
  });

  it('lets the event loop run between batches (opening a large import, resolving it)', async () => {
    const count = 5 * BATCH;
    await stage('imp-a', bigLines(count), count);
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
    }, 1);
    await publish('imp-a');
    const duringOpen = ticks;
    await resolver.resolve({ identifier: big, action: 'attach', to: ATTACH_TO, adminId: 'admin-1' });
    ticks = 0;
    await resolver.idle();
    clearInterval(timer);
    expect(duringOpen).toBeGreaterThanOrEqual(3);
    expect(ticks).toBeGreaterThanOrEqual(3);
  });
});
