// What only the SQLite document store promises beyond the contract: owner-only files, WAL journal, unique
// indexes that SQLite itself enforces, reads answered through an index rather than a scan, and the one-time
// migration of a data folder written by the hand-written store it replaced. (kill -9: documents-crash.test.ts
// and the contract's crash case.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pino from 'pino';
import { DATABASE_FILE, SqliteDocumentStore } from '../../src/adapters/documents-sqlite';
import { type Doc, DuplicateKeyError, type Filter } from '../../src/ports/documents';

const LEGACY_FIXTURE = path.join(__dirname, '..', 'fixtures', 'legacy-documents');

describe('SQLite document store', () => {
  let dataDir: string;
  const open: SqliteDocumentStore[] = [];
  const openStore = (logger = pino({ level: 'silent' })) => {
    const store = new SqliteDocumentStore({ dataDir, logger });
    open.push(store);
    return store;
  };

  beforeEach(() => {
    dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'omni-docs-sqlite-')), 'catalog');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });

  it("keeps its files the owner's alone, in WAL mode", async () => {
    const store = openStore();
    await store.collection('items').insertOne({ _id: 'a' });
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    const files = fs.readdirSync(dataDir).sort();
    expect(files).toEqual([DATABASE_FILE, `${DATABASE_FILE}-shm`, `${DATABASE_FILE}-wal`]);
    for (const file of files) expect(fs.statSync(path.join(dataDir, file)).mode & 0o777).toBe(0o600);
    const raw = new Database(store.file, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
    }
  });

  it('acknowledges a write only once the WAL holding its commit is flushed, one flush for the writes made meanwhile', async () => {
    const store = openStore();
    await store.ready();
    const sync = (store as unknown as { walSync: { flush: () => Promise<void> } }).walSync;
    const real = sync.flush.bind(sync);
    let flushes = 0;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    sync.flush = async () => {
      flushes++;
      await held;
      return real();
    };
    const items = store.collection('items');
    const acknowledged: string[] = [];
    const writes = ['a', 'b', 'c'].map((id) =>
      items.insertOne({ _id: id }).then(() => acknowledged.push(id)),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Committed (other readers see it) but not acknowledged while its flush has not ended.
    expect(await items.count()).toBe(3);
    expect(acknowledged).toEqual([]);
    release();
    await Promise.all(writes);
    expect(acknowledged.sort()).toEqual(['a', 'b', 'c']);
    // The three writes were issued together: one commit, one flush.
    expect(flushes).toBe(1);
  });

  it('leaves duplicate keys to a UNIQUE index of SQLite, missing fields included', async () => {
    const store = openStore();
    const users = store.collection<Doc & { email?: string }>('users', {
      indexes: [{ fields: { email: 1 }, unique: true }],
    });
    await users.insertMany([{ _id: 'u1', email: 'a@x' }, { _id: 'u2' }]);
    await expect(users.insertOne({ email: 'a@x' })).rejects.toBeInstanceOf(DuplicateKeyError);
    await store.close();
    const raw = new Database(store.file);
    try {
      const unique = raw
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql LIKE 'CREATE UNIQUE%'")
        .all() as Array<{ name: string }>;
      expect(unique.map((i) => i.name)).toEqual(['u:users:email_1']);
      // Straight into the key table, past the adapter: SQLite itself refuses the second owner of a key.
      const insert = raw.prepare('INSERT INTO "k:users:email_1" (k0, id) VALUES (?, ?)');
      expect(() => insert.run('a@x', 'intruder')).toThrow(/UNIQUE constraint failed/);
      expect(() => insert.run(null, 'intruder')).toThrow(/UNIQUE constraint failed/);
    } finally {
      raw.close();
    }
  });

  it('answers equalities, compound prefixes, _id lists, ranges and sorted pages through an index', async () => {
    const store = openStore();
    const jobs = store.collection<Doc & { releaseId: string; target: string; dueAt?: string }>('jobs', {
      indexes: [{ fields: { releaseId: 1, target: 1 }, unique: true }, { fields: { dueAt: 1 } }],
    });
    await jobs.insertMany(
      Array.from({ length: 2_000 }, (_, i) => ({
        _id: `r${i >> 1}:s${i & 1}`,
        releaseId: `r${i >> 1}`,
        target: `s${i & 1}`,
        ...(i % 200 === 0 ? { dueAt: `2026-01-${String(1 + i / 200).padStart(2, '0')}` } : {}),
      })),
    );
    const indexed = async (filter: Filter, sort?: Record<string, 1 | -1>) => {
      const plan = await store.explain('jobs', filter, sort);
      return {
        kind: plan.kind,
        index: plan.index,
        scans: plan.sqlite.filter((l) => /^SCAN (?!json_each)/.test(l)),
      };
    };
    expect(await indexed({ releaseId: 'r7' })).toEqual({
      kind: 'index',
      index: 'releaseId_1_target_1',
      scans: [],
    });
    expect(await indexed({ releaseId: 'r7', target: 's1' })).toMatchObject({ kind: 'index', scans: [] });
    expect(await indexed({ _id: { $in: ['r1:s0', 'r2:s1'] }, target: 's0' })).toMatchObject({
      kind: 'id',
      scans: [],
    });
    // The delivery worker's pick: jobs due by now, not every job ever delivered.
    expect(await indexed({ dueAt: { $lte: '2026-01-04' } })).toEqual({
      kind: 'index',
      index: 'dueAt_1',
      scans: [],
    });
    expect(await jobs.count({ dueAt: { $lte: '2026-01-04' } })).toBe(4);
    // A newest-first page walks the index and stops at the page's end.
    const page = await indexed({}, { dueAt: -1 });
    expect(page).toMatchObject({ kind: 'index', index: 'dueAt_1' });
    expect(page.scans.every((l) => l.includes('USING COVERING INDEX') || l.includes('USING INDEX'))).toBe(
      true,
    );
    expect((await jobs.find({}, { sort: { dueAt: -1 }, limit: 2 })).map((j) => j.dueAt)).toEqual([
      '2026-01-10',
      '2026-01-09',
    ]);
    // An unindexed field is a scan, and says so.
    expect((await store.explain('jobs', { target: 's0' })).kind).toBe('scan');
  });

  it('walks an index for a sort mixing directions, and counts from the keys what they answer', async () => {
    const store = openStore();
    const releases = store.collection<Doc & { userId: string; createdAt: string; tags?: unknown }>(
      'releases',
      {
        indexes: [{ fields: { userId: 1, createdAt: -1, _id: 1 } }, { fields: { tags: 1 } }],
      },
    );
    await releases.insertMany(
      Array.from({ length: 300 }, (_, i) => ({
        _id: `r${String(i).padStart(3, '0')}`,
        userId: `u${i % 3}`,
        createdAt: `2026-01-${String(1 + (i % 20)).padStart(2, '0')}`,
        ...(i % 7 === 0 ? { tags: [] } : i % 5 === 0 ? { tags: null } : {}),
      })),
    );
    // The dashboard's page: the owner's newest first, ties by id.
    const plan = await store.explain('releases', { userId: 'u1' }, { createdAt: -1, _id: 1 });
    expect(plan).toMatchObject({ kind: 'index', index: 'userId_1_createdAt_-1__id_1' });
    expect(plan.sqlite.some((l) => l.includes('TEMP B-TREE'))).toBe(false);
    const page = await releases.find({ userId: 'u1' }, { sort: { createdAt: -1, _id: 1 }, limit: 3 });
    const all = (await releases.find({ userId: 'u1' })).sort(
      (a, b) => b.createdAt.localeCompare(a.createdAt) || a._id.localeCompare(b._id),
    );
    expect(page.map((r) => r._id)).toEqual(all.slice(0, 3).map((r) => r._id));
    // Counts answered from the keys agree with the documents, null and empty arrays included.
    for (const filter of [
      { userId: 'u2' },
      { userId: 'u2', createdAt: { $gte: '2026-01-10' } },
      { tags: null },
      { userId: { $in: ['u0', 'u1'] } },
    ] as Filter[]) {
      expect({ filter, n: await releases.count(filter) }).toEqual({
        filter,
        n: (await releases.find(filter)).length,
      });
    }
  });

  it('lets a write made inside a transaction, but not through its scope, join it instead of waiting for it', async () => {
    const store = openStore();
    const items = store.collection('items');
    await expect(
      store.transaction(async (scope) => {
        await scope.collection('items').insertOne({ _id: 'inside' });
        await items.insertOne({ _id: 'joined' });
        await store.nextSequence('s');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await items.count()).toBe(0);
    expect(await store.nextSequence('s')).toBe(1);
  });

  it('keeps up with an index another process created in the same file', async () => {
    const server = openStore();
    const items = server.collection<Doc & { n: number }>('items');
    await items.insertOne({ _id: 'before', n: 1 });
    // A second connection to the file, as a script run beside a running server would open one.
    const script = openStore();
    await script.collection('items', { indexes: [{ fields: { n: 1 } }] }).count();
    await script.ready();
    await new Promise((r) => setTimeout(r, 50));
    await items.insertOne({ _id: 'after', n: 2 });
    expect((await script.explain('items', { n: 2 })).kind).toBe('index');
    expect((await script.collection('items').find({ n: 2 })).map((d) => d._id)).toEqual(['after']);
    expect((await script.collection('items').find({ n: 1 })).map((d) => d._id)).toEqual(['before']);
  });

  it('fails a closed store clearly', async () => {
    const store = openStore();
    await store.ready();
    await store.close();
    expect(await store.healthy()).toBe(false);
    await expect(store.collection('items').insertOne({})).rejects.toThrow(/closed/);
  });

  describe('a data folder written by the hand-written store it replaced', () => {
    const copyFixture = () => fs.cpSync(LEGACY_FIXTURE, dataDir, { recursive: true });

    it('is migrated once at start, with a progress line, and its folder kept aside', async () => {
      copyFixture();
      const lines: string[] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
      const store = openStore(logger);
      const releases = store.collection<Doc & { upc: string; title: string; stores?: string[] }>('releases', {
        indexes: [{ fields: { upc: 1 }, unique: true }],
      });
      await store.ready();
      const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
      expect(messages).toContain(
        'migrating the old embedded document store into SQLite (once; may take a while)',
      );
      expect(messages.some((m) => m.startsWith('migrated the old embedded document store into SQLite'))).toBe(
        true,
      );

      // From the snapshot, from the WAL after it, an update, a delete, a transaction and the counters.
      expect(await releases.count()).toBe(30);
      expect(await releases.findById('r2')).toBeNull();
      expect(await releases.findById('r1')).toMatchObject({
        title: 'Renamed',
        stores: ['spotify', 'apple', 'deezer'],
      });
      expect(await releases.findById('r30')).toMatchObject({ upc: 'UPC0030' });
      expect(await releases.findById('r31')).toMatchObject({ title: 'In a transaction' });
      expect(await store.collection('tracks').findById('t31')).toMatchObject({ releaseId: 'r31' });
      expect(await store.nextSequence('isrc_2026')).toBe(4);
      // The index declared by the service is built over the migrated documents.
      await expect(releases.insertOne({ upc: 'UPC0005', title: 'again' })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      expect((await store.explain('releases', { upc: 'UPC0005' })).kind).toBe('index');

      expect(fs.existsSync(path.join(dataDir, 'documents'))).toBe(false);
      expect(fs.readdirSync(path.join(dataDir, 'documents.migrated-to-sqlite'))).toContain('snapshot.jsonl');
      await store.close();

      lines.length = 0;
      const again = openStore(logger);
      await again.ready();
      expect(lines.some((l) => l.includes('migrating'))).toBe(false);
      expect(await again.collection('releases').count()).toBe(30);
    });

    it('leaves out a torn last WAL line, as the old store did', async () => {
      copyFixture();
      const wal = path.join(dataDir, 'documents', 'wal-0000000002.jsonl');
      fs.appendFileSync(wal, '{"w":[["p","releases",{"_id":"torn"');
      const store = openStore();
      expect(await store.collection('releases').findById('torn')).toBeNull();
      expect(await store.collection('releases').count()).toBe(30);
    });

    it('refuses a damaged folder with what to do, and changes nothing', async () => {
      copyFixture();
      const wal = path.join(dataDir, 'documents', 'wal-0000000002.jsonl');
      const [first, ...rest] = fs.readFileSync(wal, 'utf8').split('\n');
      fs.writeFileSync(wal, [first!.slice(0, 10), ...rest].join('\n'));
      const store = openStore();
      await expect(store.ready()).rejects.toThrow(
        /migrating the old document store .* failed, nothing was changed: .*wal-0000000002.jsonl is unreadable at line 1 .*restore it from a backup/,
      );
      expect(fs.existsSync(path.join(dataDir, 'documents', 'snapshot.jsonl'))).toBe(true);
    });
  });
});
