// What only the embedded document store promises beyond the contract: its files survive torn writes and
// refuse real corruption, compaction keeps everything, one process owns a directory, group commit is fast.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmbeddedDocumentStore } from '../../src/adapters/documents-embedded';
import type { Doc, DocumentStore } from '../../src/ports/documents';

describe('embedded document store', () => {
  let dataDir: string;
  let docsDir: string;
  const open: DocumentStore[] = [];
  const openStore = (extra: { compactionThresholdBytes?: number } = {}) => {
    const store = createEmbeddedDocumentStore({ dataDir, ...extra });
    open.push(store);
    return store;
  };
  const walFiles = () =>
    fs
      .readdirSync(docsDir)
      .filter((f) => f.startsWith('wal-'))
      .sort();

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-docs-emb-'));
    docsDir = path.join(dataDir, 'documents');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('group-commits concurrent writes: 150 inserts share a handful of fsyncs', async () => {
    const store = openStore();
    await store.ready();
    const items = store.collection('items');
    // Count flushes on the FileHandle prototype the WAL writer uses.
    const probe = await fs.promises.open(path.join(dataDir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
    await probe.close();
    const datasync = jest.spyOn(proto, 'datasync');
    try {
      const started = performance.now();
      await Promise.all(Array.from({ length: 150 }, (_, i) => items.insertOne({ i })));
      const ms = performance.now() - started;
      expect(await items.count()).toBe(150);
      // One fsync per write would be 150; group commit batches whatever arrived during the previous flush.
      expect(datasync.mock.calls.length).toBeGreaterThan(0);
      expect(datasync.mock.calls.length).toBeLessThanOrEqual(10);
      expect(ms).toBeLessThan(2000);
    } finally {
      datasync.mockRestore();
    }
  });

  it('group-commits concurrent transactions too: the next starts once the previous is applied', async () => {
    const store = openStore();
    await store.ready();
    const probe = await fs.promises.open(path.join(dataDir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
    await probe.close();
    const datasync = jest.spyOn(proto, 'datasync');
    try {
      // Each transaction reads the counter and writes it back: run one at a time, none is lost.
      await store.collection<{ _id: string; n: number }>('counters').insertOne({ _id: 'c', n: 0 });
      datasync.mockClear();
      await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          store.transaction(async (scope) => {
            const counters = scope.collection<{ _id: string; n: number }>('counters');
            const c = await counters.findOne({ _id: 'c' });
            await counters.updateOne({ _id: 'c' }, { $set: { n: c!.n + 1 } });
            await scope.collection('log').insertOne({ i });
          }),
        ),
      );
      expect((await store.collection<{ _id: string; n: number }>('counters').findOne({ _id: 'c' }))!.n).toBe(
        60,
      );
      expect(await store.collection('log').count()).toBe(60);
      // Waiting for each fsync before starting the next transaction would be 60 flushes.
      expect(datasync.mock.calls.length).toBeGreaterThan(0);
      expect(datasync.mock.calls.length).toBeLessThanOrEqual(15);
    } finally {
      datasync.mockRestore();
    }
    // Everything acknowledged is durable: a fresh open of the directory sees it all.
    await store.close();
    const again = openStore();
    await again.ready();
    expect((await again.collection<{ _id: string; n: number }>('counters').findOne({ _id: 'c' }))!.n).toBe(
      60,
    );
  });

  it('cuts a torn last WAL line and keeps everything before it', async () => {
    let store = openStore();
    const items = store.collection('items');
    await items.insertOne({ _id: 'a' });
    await items.insertOne({ _id: 'b' });
    await store.close();
    const wal = path.join(docsDir, walFiles().at(-1)!);
    const intact = fs.statSync(wal).size;
    fs.appendFileSync(wal, '{"w":[["p","items",{"_id":"torn"');

    store = openStore();
    expect((await store.collection('items').find({})).map((d) => d._id)).toEqual(['a', 'b']);
    expect(fs.statSync(wal).size).toBe(intact);
    // Appends after recovery land on a clean line boundary and survive another reopen.
    await store.collection('items').insertOne({ _id: 'c' });
    await store.close();
    store = openStore();
    expect(await store.collection('items').count()).toBe(3);
  });

  it('refuses to open when a record before the end of the log is unreadable', async () => {
    let store = openStore();
    await store.collection('items').insertOne({ _id: 'a' });
    await store.collection('items').insertOne({ _id: 'b' });
    await store.close();
    const wal = path.join(docsDir, walFiles().at(-1)!);
    const [first, ...rest] = fs.readFileSync(wal, 'utf8').split('\n');
    fs.writeFileSync(wal, [`${first!.slice(0, 10)}#garbage`, ...rest].join('\n'));
    store = openStore();
    await expect(store.ready()).rejects.toThrow(/corrupt/);
  });

  it('compacts into a snapshot and recovers from snapshot plus WAL', async () => {
    let store = openStore({ compactionThresholdBytes: 2048 });
    const items = store.collection<Doc & { n: number }>('items', {
      indexes: [{ fields: { n: 1 }, unique: true }],
    });
    for (let n = 0; n < 100; n++) await items.insertOne({ _id: `d${n}`, n, pad: 'p'.repeat(50) });
    await items.deleteMany({ n: { $lt: 10 } });
    await items.updateOne({ _id: 'd50' }, { $set: { touched: true } });
    const seq = await store.nextSequence('s', 500);
    await store.close();
    const files = fs.readdirSync(docsDir);
    expect(files).toContain('snapshot.jsonl');
    expect(walFiles().length).toBeLessThanOrEqual(2);

    store = openStore({ compactionThresholdBytes: 2048 });
    const again = store.collection<Doc & { n: number }>('items', {
      indexes: [{ fields: { n: 1 }, unique: true }],
    });
    expect(await again.count()).toBe(90);
    expect(await again.findById('d5')).toBeNull();
    expect((await again.findOne({ n: 50 }))?.touched).toBe(true);
    await expect(again.insertOne({ n: 42 })).rejects.toThrow(/duplicate key/);
    expect(await store.nextSequence('s')).toBe(seq + 1);
  });

  it('recovers when a crash left a temp snapshot and stale WAL generations behind', async () => {
    let store = openStore({ compactionThresholdBytes: 1024 });
    for (let n = 0; n < 40; n++)
      await store.collection('items').insertOne({ _id: `d${n}`, pad: 'p'.repeat(60) });
    await store.close();
    // A crash mid-snapshot leaves a half-written temp file: it must be ignored and removed.
    fs.writeFileSync(
      path.join(docsDir, 'snapshot.jsonl.tmp'),
      '{"v":1,"baseGen":99}\n{"c":"items","d":{"_id":"ghost"}}',
    );
    store = openStore();
    const ids = (await store.collection('items').find({})).map((d) => d._id);
    expect(ids).toHaveLength(40);
    expect(ids).not.toContain('ghost');
    expect(fs.existsSync(path.join(docsDir, 'snapshot.jsonl.tmp'))).toBe(false);
  });

  it('lets one store at a time own a directory', async () => {
    const first = openStore();
    await first.ready();
    const second = createEmbeddedDocumentStore({ dataDir });
    await expect(second.ready()).rejects.toThrow(/already open/);
    await first.close();
    const third = openStore();
    await expect(third.ready()).resolves.toBeUndefined();
  });

  it('uses a unique index for equality lookups without scanning', async () => {
    const store = openStore();
    const items = store.collection<Doc & { email: string }>('users', {
      indexes: [{ fields: { email: 1 }, unique: true }],
    });
    await items.insertMany(Array.from({ length: 20_000 }, (_, i) => ({ email: `u${i}@x`, i })));
    for (let i = 0; i < 200; i++) expect((await items.findOne({ email: `u${i * 7}@x` }))?.i).toBe(i * 7);
    // The planner's candidate set, not a timer: an indexed equality yields the one document, an
    // unindexed field has to consider every document.
    const planner = store as unknown as { candidates(c: string, f: object): Iterable<unknown> };
    expect([...planner.candidates('users', { email: 'u700@x' })]).toHaveLength(1);
    expect([...planner.candidates('users', { i: 700 })]).toHaveLength(20_000);
  });

  it("answers an equality on a compound index's leading field, and _id $in, without scanning", async () => {
    const store = openStore();
    const jobs = store.collection<Doc & { releaseId: string; target: string }>('jobs', {
      indexes: [{ fields: { releaseId: 1, target: 1 }, unique: true }],
    });
    await jobs.insertMany(
      Array.from({ length: 5_000 }, (_, i) => ({
        _id: `r${i >> 1}:s${i & 1}`,
        releaseId: `r${i >> 1}`,
        target: `s${i & 1}`,
      })),
    );
    const planner = store as unknown as { candidates(c: string, f: object): Iterable<unknown> };
    // MongoDB serves `{releaseId}` from the {releaseId, target} index; before, this read every job.
    expect([...planner.candidates('jobs', { releaseId: 'r7' })]).toHaveLength(2);
    expect([...planner.candidates('jobs', { _id: { $in: ['r1:s0', 'r2:s1'] }, target: 's0' })]).toHaveLength(
      2,
    );
    expect((await jobs.find({ releaseId: 'r7' })).map((j) => j.target).sort()).toEqual(['s0', 's1']);
  });

  it('answers a range on a one-field index from the documents that have the field, without scanning', async () => {
    const store = openStore();
    const jobs = store.collection<Doc & { dueAt?: string }>('due', { indexes: [{ fields: { dueAt: 1 } }] });
    // 5,000 jobs done (no due time any more), 10 still to do.
    await jobs.insertMany(Array.from({ length: 5_000 }, (_, i) => ({ _id: `done${i}` })));
    await jobs.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: `due${i}`, dueAt: `2026-01-0${i}` })));
    const planner = store as unknown as { candidates(c: string, f: object): Iterable<unknown> };
    // The worker's pick: before, every job was tested against the filter.
    expect([...planner.candidates('due', { dueAt: { $lte: '2026-01-04' } })]).toHaveLength(5);
    expect(await jobs.count({ dueAt: { $lte: '2026-01-04' } })).toBe(5);
  });

  it('re-runs a transaction whose document was changed by a concurrent write', async () => {
    const store = openStore();
    const accounts = store.collection<Doc & { balance: number }>('accounts');
    await accounts.insertOne({ _id: 'acc', balance: 100 });
    let runs = 0;
    let outsideWrite: Promise<unknown> | undefined;
    await store.transaction(async (scope) => {
      runs++;
      const inside = scope.collection<Doc & { balance: number }>('accounts');
      const { balance } = (await inside.findById('acc'))!;
      // The first run is overtaken by a plain write; committing its stale read would lose that write.
      if (runs === 1) {
        outsideWrite = accounts.updateOne({ _id: 'acc' }, { $inc: { balance: 5 } });
        await outsideWrite;
      }
      await inside.updateOne({ _id: 'acc' }, { $set: { balance: balance - 30 } });
    });
    expect(runs).toBe(2);
    expect((await accounts.findById('acc'))!.balance).toBe(75);
  });

  it('fails a closed store clearly', async () => {
    const store = openStore();
    await store.ready();
    await store.close();
    expect(await store.healthy()).toBe(false);
    await expect(store.collection('items').insertOne({})).rejects.toThrow(/closed/);
  });
});
