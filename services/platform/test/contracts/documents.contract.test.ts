// Contract suite for the DocumentStore port: the same cases against the embedded store (always) and MongoDB
// (when MONGODB_URI is set; it must be a replica set, since the port needs transactions). A target that
// cannot run says so in the output; it is never silently green.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import {
  type CollectionSpec,
  type Doc,
  type DocumentStore,
  DuplicateKeyError,
  type Filter,
} from '../../src/ports/documents';
import {
  type DocumentStoreTarget,
  deferred,
  type EngineGaps,
  embeddedTarget,
  mongoTarget,
} from '../support/documents-targets';

const mongoUri = process.env.MONGODB_URI?.trim();

describe('DocumentStore contract: embedded', () => contractCases(embeddedTarget));

if (!mongoUri) console.warn('[contract] mongodb: SKIPPED — MONGODB_URI not set');
(mongoUri ? describe : describe.skip)(
  `DocumentStore contract: mongodb${mongoUri ? '' : ' (SKIPPED — MONGODB_URI not set)'}`,
  () => {
    if (mongoUri) contractCases(() => mongoTarget(mongoUri));
    else it('runs only with MONGODB_URI (a replica set)', () => undefined);
  },
);

interface Item extends Doc {
  name?: string;
  n?: number;
  tags?: string[];
  meta?: Record<string, unknown>;
  [field: string]: unknown;
}

function ids(docs: Doc[]): string[] {
  return docs.map((d) => d._id).sort();
}

const CRASH_CHILD = join(__dirname, 'documents-crash-child.ts');

/** Resolves once the child prints `line`; rejects when it exits first. */
function untilLine(child: ReturnType<typeof spawn>, line: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`child did not say "${line}" in ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.split('\n').includes(line)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`child exited (${code}) before saying "${line}": ${seen}`));
    });
  });
}

function contractCases(makeTarget: () => DocumentStoreTarget): void {
  let target: DocumentStoreTarget;
  let store: DocumentStore;
  let gaps: EngineGaps = {};
  let seq = 0;
  /** True when the engine can show `what`; otherwise says so by name in the output. */
  const verifiable = (gap: keyof EngineGaps, what: string): boolean => {
    const why = gaps[gap];
    if (why) console.warn(`[contract] ${store.kind}: not verifiable on this engine: ${what} (${why})`);
    return !why;
  };
  /** A fresh collection name per test, so tests never see each other's data. */
  const fresh = (base: string) => `${base}_${++seq}`;

  beforeAll(async () => {
    target = makeTarget();
    store = target.open();
    await store.ready();
    gaps = (await target.gaps?.()) ?? {};
  });

  afterAll(async () => {
    await store.close();
    await target.cleanup();
  });

  it('reports itself healthy', async () => {
    expect(await store.healthy()).toBe(true);
    expect(['embedded', 'mongodb']).toContain(store.kind);
  });

  it('round-trips a document: insert, find by id, update, delete', async () => {
    const items = store.collection<Item>(fresh('crud'));
    const created = await items.insertOne({
      name: 'first',
      n: 1,
      meta: { when: new Date('2024-05-01T00:00:00Z') },
    });
    expect(typeof created._id).toBe('string');
    expect(created._id.length).toBeGreaterThan(0);
    // Dates are stored as ISO strings by both adapters.
    expect(created.meta).toEqual({ when: '2024-05-01T00:00:00.000Z' });
    expect(await items.findById(created._id)).toEqual(created);

    // Undefined fields are dropped and -0 is 0, whether the document needed normalising or not.
    const sparse = await items.insertOne({ _id: 'sparse', name: 'x', n: -0, meta: undefined } as never);
    expect(Object.keys(sparse)).toEqual(['_id', 'name', 'n']);
    expect(Object.is((await items.findById('sparse'))!.n, 0)).toBe(true);
    expect(await items.deleteOne({ _id: 'sparse' })).toBe(1);

    const chosen = await items.insertOne({ _id: 'chosen-id', name: 'second' });
    expect(chosen._id).toBe('chosen-id');

    // Returned documents are copies: mutating one must not change the store.
    const copy = (await items.findById('chosen-id'))!;
    copy.name = 'mutated';
    expect((await items.findById('chosen-id'))!.name).toBe('second');

    expect(await items.updateOne({ _id: created._id }, { $set: { name: 'renamed' } })).toEqual({
      matched: 1,
      modified: 1,
    });
    expect((await items.findById(created._id))!.name).toBe('renamed');
    expect(await items.count()).toBe(2);
    expect(await items.deleteOne({ _id: created._id })).toBe(1);
    expect(await items.deleteOne({ _id: created._id })).toBe(0);
    expect(await items.findById(created._id)).toBeNull();
    expect(await items.deleteMany({})).toBe(1);
    expect(await items.count()).toBe(0);
  });

  describe('filters', () => {
    let name: string;
    beforeAll(async () => {
      name = fresh('filters');
      await store.collection<Item>(name).insertMany([
        {
          _id: 'a',
          name: 'alpha',
          n: 1,
          tags: ['x', 'y'],
          meta: { reason: 'dup', score: 5 },
          at: '2024-01-01T00:00:00.000Z',
        },
        {
          _id: 'b',
          name: 'beta',
          n: 2,
          tags: ['y'],
          meta: { reason: 'ok', score: 7 },
          at: '2024-02-01T00:00:00.000Z',
          opt: null,
        },
        { _id: 'c', name: 'gamma', n: 3, tags: [], at: '2024-03-01T00:00:00.000Z', opt: 'set' },
        { _id: 'd', name: 'delta', n: 10, s: '10', lines: [{ isrc: 'I1' }, { isrc: 'I2' }] },
      ]);
    });

    const cases: Array<[string, Filter, string[]]> = [
      ['empty filter', {}, ['a', 'b', 'c', 'd']],
      ['equality', { name: 'beta' }, ['b']],
      ['equality on _id', { _id: 'c' }, ['c']],
      ['array contains', { tags: 'x' }, ['a']],
      ['array contains (several)', { tags: 'y' }, ['a', 'b']],
      ['dotted path', { 'meta.reason': 'dup' }, ['a']],
      ['dotted path through an array', { 'lines.isrc': 'I2' }, ['d']],
      ['$eq', { n: { $eq: 2 } }, ['b']],
      ['$ne', { n: { $ne: 2 } }, ['a', 'c', 'd']],
      ['$ne on an array', { tags: { $ne: 'y' } }, ['c', 'd']],
      ['$in', { n: { $in: [1, 3] } }, ['a', 'c']],
      ['$in on an array', { tags: { $in: ['x', 'zz'] } }, ['a']],
      ['$nin', { n: { $nin: [1, 3] } }, ['b', 'd']],
      ['$gt', { n: { $gt: 2 } }, ['c', 'd']],
      ['$gte', { n: { $gte: 2 } }, ['b', 'c', 'd']],
      ['$lt', { n: { $lt: 2 } }, ['a']],
      ['$lte', { n: { $lte: 2 } }, ['a', 'b']],
      ['range', { n: { $gt: 1, $lt: 10 } }, ['b', 'c']],
      ['ISO dates compare as strings', { at: { $gte: '2024-02-01', $lt: '2024-03-01' } }, ['b']],
      ['ranges do not cross types (string field, number bound)', { s: { $gt: 5 } }, []],
      ['ranges do not cross types (number field, string bound)', { n: { $gt: '1' } }, []],
      ['$exists true (null counts as existing)', { opt: { $exists: true } }, ['b', 'c']],
      ['$exists false', { opt: { $exists: false } }, ['a', 'd']],
      ['null matches null and missing', { opt: null }, ['a', 'b', 'd']],
      ['$ne null', { opt: { $ne: null } }, ['c']],
      ['dotted range', { 'meta.score': { $gte: 6 } }, ['b']],
      ['dotted missing', { 'meta.missing': { $exists: false } }, ['a', 'b', 'c', 'd']],
      ['$or', { $or: [{ n: 1 }, { name: 'delta' }] }, ['a', 'd']],
      ['$or with other fields', { tags: 'y', $or: [{ n: 2 }, { n: 10 }] }, ['b']],
    ];
    it.each(cases)('%s', async (_label, filter, expected) => {
      const items = store.collection<Item>(name);
      expect(ids(await items.find(filter))).toEqual(expected);
      expect(await items.count(filter)).toBe(expected.length);
    });

    it('$in on indexed fields finds what a scan finds (one-field, multikey and sparse indexes)', async () => {
      const indexed = store.collection<Item>(`${name}_in`, {
        indexes: [{ fields: { n: 1 } }, { fields: { tags: 1 } }, { fields: { opt: 1 }, sparse: true }],
      });
      await indexed.insertMany([
        { _id: 'a', n: 1, tags: ['x', 'y'] },
        { _id: 'b', n: 2, tags: ['y'], opt: null },
        { _id: 'c', n: 3, tags: [], opt: 'set' },
      ]);
      expect(ids(await indexed.find({ n: { $in: [3, 1, 99] } }))).toEqual(['a', 'c']);
      expect(ids(await indexed.find({ tags: { $in: ['y', 'zz'] } }))).toEqual(['a', 'b']);
      expect(ids(await indexed.find({ opt: { $in: [null, 'set'] } }))).toEqual(['a', 'b', 'c']);
      expect(ids(await indexed.find({ n: { $in: [1, 2] }, tags: 'x' }))).toEqual(['a']);
      expect(await indexed.count({ n: { $in: [] } })).toBe(0);
    });

    it('an equality on the leading fields of a compound index, and _id $in, find what a scan finds', async () => {
      const indexed = store.collection<Item>(`${name}_prefix`, {
        indexes: [{ fields: { n: 1, tags: 1, opt: 1 } }],
      });
      await indexed.insertMany([
        { _id: 'a', n: 1, tags: ['x', 'y'] },
        { _id: 'b', n: 1, tags: ['y'], opt: 'set' },
        { _id: 'c', n: 2, tags: ['x'] },
      ]);
      await indexed.updateOne({ _id: 'c' }, { $set: { n: 1 } });
      await indexed.deleteOne({ _id: 'b' });
      await indexed.insertOne({ _id: 'd', n: 3, tags: ['y'] });
      expect(ids(await indexed.find({ n: 1 }))).toEqual(['a', 'c']);
      expect(ids(await indexed.find({ n: 1, tags: 'y' }))).toEqual(['a']);
      expect(ids(await indexed.find({ n: 3, tags: 'y' }))).toEqual(['d']);
      expect(ids(await indexed.find({ n: 2 }))).toEqual([]);
      expect(ids(await indexed.find({ _id: { $in: ['d', 'a', 'zz', 'a'] } }))).toEqual(['a', 'd']);
      expect(ids(await indexed.find({ _id: { $in: ['a', 'c'] }, tags: 'x' }))).toEqual(['a', 'c']);
    });

    it('a range on a one-field index finds what a scan finds (strings, numbers, missing and multikey)', async () => {
      const indexed = store.collection<Item & { at?: string }>(`${name}_range`, {
        indexes: [{ fields: { at: 1 } }, { fields: { n: 1 } }, { fields: { tags: 1 } }],
      });
      await indexed.insertMany([
        { _id: 'a', n: 1, at: '2026-01-01', tags: ['b', 'x'] },
        { _id: 'b', n: 2, at: '2026-01-03', tags: [] },
        { _id: 'c', n: 3, tags: ['c'] },
        { _id: 'd', n: 4, at: '2026-01-02' },
      ]);
      await indexed.updateOne({ _id: 'b' }, { $unset: { at: '' } });
      expect(ids(await indexed.find({ at: { $lte: '2026-01-02' } }))).toEqual(['a', 'd']);
      expect(ids(await indexed.find({ at: { $lt: '2026-01-02' } }))).toEqual(['a']);
      expect(ids(await indexed.find({ at: { $gt: '2026-01-01', $lte: '2027' } }))).toEqual(['d']);
      expect(ids(await indexed.find({ n: { $gte: 2, $lt: 4 } }))).toEqual(['b', 'c']);
      expect(ids(await indexed.find({ n: { $gt: '1' } }))).toEqual([]);
      expect(ids(await indexed.find({ tags: { $gte: 'c' } }))).toEqual(['a', 'c']);
      expect(ids(await indexed.find({ at: { $lte: '2026-12-31' }, n: { $in: [4] } }))).toEqual(['d']);
      const sorted = await indexed.find({ at: { $gte: '2026' } }, { sort: { at: -1 }, limit: 1 });
      expect(sorted.map((d) => d._id)).toEqual(['d']);
    });

    it('rejects operators outside the subset', async () => {
      const items = store.collection<Item>(name);
      await expect(items.find({ n: { $where: 'true' } } as unknown as Filter)).rejects.toThrow(/unsupported/);
      await expect(items.find({ $where: 'true' } as unknown as Filter)).rejects.toThrow(/unsupported/);
      await expect(items.find({ n: { $in: 3 } } as unknown as Filter)).rejects.toThrow(/array/);
    });
  });

  describe('updates', () => {
    it('$set (creating nested objects), $unset, $inc, $push, $pull', async () => {
      const items = store.collection<Item>(fresh('updates'));
      await items.insertOne({
        _id: 'u',
        name: 'x',
        n: 1,
        tags: ['x', 'y', 'x'],
        meta: { reason: 'r', score: 5 },
      });
      await items.updateOne(
        { _id: 'u' },
        { $set: { name: 'A', 'meta.reason': 'changed', 'deep.x.y': 1 }, $inc: { n: 5, 'meta.count': 2 } },
      );
      let doc = (await items.findById('u'))!;
      expect(doc.name).toBe('A');
      expect(doc.n).toBe(6);
      expect(doc.meta).toEqual({ reason: 'changed', score: 5, count: 2 });
      expect(doc.deep).toEqual({ x: { y: 1 } });

      await items.updateOne(
        { _id: 'u' },
        { $unset: { 'meta.score': '', nothing: 1 }, $push: { tags: 'z', log: 'first' } },
      );
      doc = (await items.findById('u'))!;
      expect(doc.meta).toEqual({ reason: 'changed', count: 2 });
      expect(doc.tags).toEqual(['x', 'y', 'x', 'z']);
      expect(doc.log).toEqual(['first']);

      await items.updateOne(
        { _id: 'u' },
        { $pull: { tags: 'x' }, $push: { log: { $each: ['second', 'third'] } } },
      );
      doc = (await items.findById('u'))!;
      expect(doc.tags).toEqual(['y', 'z']);
      expect(doc.log).toEqual(['first', 'second', 'third']);
    });

    it('counts matched and modified; a no-op update modifies nothing', async () => {
      const items = store.collection<Item>(fresh('counts'));
      await items.insertMany([
        { _id: '1', g: 'a', v: 1 },
        { _id: '2', g: 'a', v: 2 },
        { _id: '3', g: 'b', v: 1 },
      ]);
      expect(await items.updateOne({ _id: '1' }, { $set: { v: 1 } })).toEqual({ matched: 1, modified: 0 });
      expect(await items.updateOne({ _id: 'nope' }, { $set: { v: 1 } })).toEqual({ matched: 0, modified: 0 });
      expect(await items.updateMany({ g: 'a' }, { $set: { v: 2 } })).toEqual({ matched: 2, modified: 1 });
      expect(await items.count({ v: 2 })).toBe(2);
    });

    it('upserts with $setOnInsert applied only on insert, seeded from the filter', async () => {
      const items = store.collection<Item>(fresh('upserts'));
      const first = await items.updateOne(
        { key: 'k1' },
        { $set: { v: 1 }, $setOnInsert: { created: 'first' } },
        { upsert: true },
      );
      expect(first.matched).toBe(0);
      expect(typeof first.upsertedId).toBe('string');
      const inserted = (await items.findById(first.upsertedId!))!;
      expect(inserted).toEqual({ _id: first.upsertedId, key: 'k1', v: 1, created: 'first' });

      const second = await items.updateOne(
        { key: 'k1' },
        { $set: { v: 2 }, $setOnInsert: { created: 'second' } },
        { upsert: true },
      );
      expect(second).toEqual({ matched: 1, modified: 1 });
      expect(await items.findById(first.upsertedId!)).toEqual({ ...inserted, v: 2 });

      const byId = await items.updateOne({ _id: 'given' }, { $inc: { n: 1 } }, { upsert: true });
      expect(byId.upsertedId).toBe('given');
      expect(await items.findById('given')).toEqual({ _id: 'given', n: 1 });
    });

    it('findOneAndUpdate returns the document before or after, and upserts', async () => {
      const items = store.collection<Item>(fresh('fou'));
      await items.insertMany([
        { _id: 'p', state: 'queued', rank: 2 },
        { _id: 'q', state: 'queued', rank: 1 },
      ]);
      const after = await items.findOneAndUpdate(
        { state: 'queued' },
        { $set: { state: 'running' } },
        { sort: { rank: 1 } },
      );
      expect(after).toEqual({ _id: 'q', state: 'running', rank: 1 });
      const before = await items.findOneAndUpdate(
        { state: 'queued' },
        { $set: { state: 'running' } },
        { returnDocument: 'before' },
      );
      expect(before).toEqual({ _id: 'p', state: 'queued', rank: 2 });
      expect(await items.findOneAndUpdate({ state: 'queued' }, { $set: { state: 'x' } })).toBeNull();
      const upserted = await items.findOneAndUpdate(
        { state: 'new' },
        { $setOnInsert: { rank: 9 } },
        { upsert: true },
      );
      expect(upserted).toMatchObject({ state: 'new', rank: 9 });
      expect(typeof upserted!._id).toBe('string');
    });

    it('rejects updates MongoDB would reject, changing nothing', async () => {
      const items = store.collection<Item>(fresh('badupdates'));
      await items.insertOne({ _id: 'x', name: 'text', n: 1 });
      await expect(items.updateOne({ _id: 'x' }, { $inc: { name: 1 } })).rejects.toThrow();
      await expect(items.updateOne({ _id: 'x' }, { $set: { _id: 'y' } })).rejects.toThrow(/_id/);
      await expect(items.updateOne({ _id: 'x' }, { $set: { n: 2 }, $inc: { n: 1 } })).rejects.toThrow(
        /conflict/,
      );
      await expect(items.updateOne({ _id: 'x' }, { $rename: { n: 'm' } } as never)).rejects.toThrow(
        /unsupported/,
      );
      await expect(items.updateOne({ _id: 'x' }, {})).rejects.toThrow();
      expect(await items.findById('x')).toEqual({ _id: 'x', name: 'text', n: 1 });
    });

    it('refuses what FerretDB and MongoDB refuse to store — arrays inside arrays, dotted or $ field names — writing nothing', async () => {
      const items = store.collection<Item>(fresh('engineshape'));
      await items.insertOne({ _id: 'x', name: 'text', n: 1 });
      await expect(items.insertOne({ _id: 'y', rows: [['a', 'b']] } as never)).rejects.toThrow(
        /array inside an array/,
      );
      await expect(items.insertOne({ _id: 'y', meta: { 'a.b': 1 } } as never)).rejects.toThrow(/'a\.b'/);
      await expect(
        items.insertMany([{ _id: 'y' }, { _id: 'z', rows: [{ deep: [[1]] }] }] as never),
      ).rejects.toThrow(/array inside an array/);
      await expect(items.updateOne({ _id: 'x' }, { $set: { rows: [[1]] } })).rejects.toThrow(
        /array inside an array/,
      );
      await expect(items.updateOne({ _id: 'x' }, { $push: { tags: ['a'] } } as never)).rejects.toThrow(
        /array inside an array/,
      );
      await expect(items.updateOne({ _id: 'x' }, { $set: { meta: { $x: 1 } } })).rejects.toThrow(/\$x/);
      // Arrays of objects holding arrays, and dotted paths in an update, are fine.
      await items.updateOne({ _id: 'x' }, { $set: { 'meta.rows': [{ cells: ['a', 'b'] }] } });
      expect(await items.find({})).toEqual([
        { _id: 'x', name: 'text', n: 1, meta: { rows: [{ cells: ['a', 'b'] }] } },
      ]);
    });
  });

  it('sorts on several keys, skips and limits', async () => {
    const items = store.collection<Item>(fresh('sort'));
    await items.insertMany([
      { _id: 's1', g: 'b', n: 1, at: '2024-01-03T00:00:00.000Z' },
      { _id: 's2', g: 'a', n: 2, at: '2024-01-01T00:00:00.000Z' },
      { _id: 's3', g: 'a', n: 3, at: '2024-01-02T00:00:00.000Z' },
      { _id: 's4', g: 'b', n: 4, at: '2023-12-31T23:59:59.000Z' },
      { _id: 's5', n: 5, at: '2024-02-01T00:00:00.000Z' },
    ]);
    const order = async (sort: Record<string, 1 | -1>, skip?: number, limit?: number) =>
      (await items.find({}, { sort, skip, limit })).map((d) => d._id);
    // A missing field sorts first ascending (as null), last descending.
    expect(await order({ g: 1, n: -1 })).toEqual(['s5', 's3', 's2', 's4', 's1']);
    expect(await order({ g: -1, n: 1 })).toEqual(['s1', 's4', 's2', 's3', 's5']);
    expect(await order({ at: 1 })).toEqual(['s4', 's2', 's3', 's1', 's5']);
    expect(await order({ at: -1 }, 1, 2)).toEqual(['s1', 's3']);
    expect(await order({ n: 1 }, 3)).toEqual(['s4', 's5']);
    expect(await order({ n: 1 }, 0, 2)).toEqual(['s1', 's2']);
    expect((await items.findOne({ g: 'a' }, { sort: { n: -1 } }))?._id).toBe('s3');
  });

  describe('unique indexes', () => {
    it('refuses a duplicate key and writes nothing', async () => {
      const items = store.collection<Item>(fresh('uniq'), {
        indexes: [{ fields: { email: 1 }, unique: true }],
      });
      await items.insertOne({ _id: 'u1', email: 'a@x' });
      await expect(items.insertOne({ _id: 'u2', email: 'a@x' })).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(items.insertOne({ _id: 'u1', email: 'other@x' })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      expect(await items.count()).toBe(1);
      await items.insertOne({ _id: 'u3', email: 'b@x' });
      // An update into a taken key fails and leaves the document as it was.
      await expect(items.updateOne({ _id: 'u3' }, { $set: { email: 'a@x' } })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      await expect(
        items.updateOne({ email: 'a@x', v: 1 }, { $set: { v: 1 } }, { upsert: true }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      expect((await items.findById('u3'))!.email).toBe('b@x');
      // The key moves with the document.
      await items.updateOne({ _id: 'u1' }, { $set: { email: 'c@x' } });
      expect(await items.findOne({ email: 'a@x' })).toBeNull();
      expect((await items.findOne({ email: 'c@x' }))?._id).toBe('u1');
      await items.insertOne({ _id: 'u4', email: 'a@x' });
      if (verifiable('missingAsNull', 'a non-sparse unique index admitting one document without the field')) {
        // Without sparse, a missing field indexes as null: only one document may lack it.
        await items.insertOne({ _id: 'u5' });
        await expect(items.insertOne({ _id: 'u6' })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await items.count()).toBe(4);
      }
    });

    it('names the index in the error', async () => {
      const items = store.collection<Item>(fresh('uniqname'), {
        indexes: [{ fields: { code: 1 }, unique: true, name: 'code_unique' }],
      });
      await items.insertOne({ code: 'c' });
      const err = await items.insertOne({ code: 'c' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DuplicateKeyError);
      expect((err as DuplicateKeyError).index).toBe('code_unique');
    });

    it('enforces compound indexes on the combination', async () => {
      const items = store.collection<Item>(fresh('compound'), {
        indexes: [{ fields: { owner: 1, slug: 1 }, unique: true }],
      });
      await items.insertOne({ owner: 'o1', slug: 's1' });
      await items.insertOne({ owner: 'o1', slug: 's2' });
      await items.insertOne({ owner: 'o2', slug: 's1' });
      await expect(items.insertOne({ owner: 'o1', slug: 's1' })).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await items.count()).toBe(3);
      expect((await items.findOne({ owner: 'o2', slug: 's1' }))?.owner).toBe('o2');
    });

    it('sparse indexes ignore documents missing a field', async () => {
      const items = store.collection<Item>(fresh('sparse'), {
        indexes: [{ fields: { isrc: 1 }, unique: true, sparse: true }],
      });
      await items.insertOne({ title: 'no isrc 1' });
      await items.insertOne({ title: 'no isrc 2' });
      await items.insertOne({ title: 'with', isrc: 'US1' });
      await expect(items.insertOne({ title: 'again', isrc: 'US1' })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      expect(await items.count()).toBe(3);
    });

    it('insertMany is all or nothing', async () => {
      const items = store.collection<Item>(fresh('many'), {
        indexes: [{ fields: { email: 1 }, unique: true }],
      });
      await items.insertOne({ _id: 'e1', email: 'e1@x' });
      const batch = ['e2', 'e3', 'e1', 'e4'].map((e) => ({ email: `${e}@x` }));
      await expect(items.insertMany(batch)).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await items.count()).toBe(1);
      await expect(
        items.insertMany([{ email: 'z1@x' }, { email: 'z2@x' }, { email: 'z1@x' }]),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(
        items.insertMany([
          { _id: 'same', email: 'q1@x' },
          { _id: 'same', email: 'q2@x' },
        ]),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await items.count()).toBe(1);
      const inserted = await items.insertMany(['f1', 'f2', 'f3'].map((e) => ({ email: `${e}@x` })));
      expect(inserted).toHaveLength(3);
      expect(new Set(inserted.map((d) => d._id)).size).toBe(3);
      expect(await items.count()).toBe(4);
    });
  });

  it('admits exactly N of 100 concurrent conditional updates', async () => {
    const links = store.collection<Item>(fresh('links'));
    await links.insertMany([
      { _id: 'link', uses: 0 },
      { _id: 'link2', uses: 0 },
    ]);
    const N = 7;
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        links.updateOne({ _id: 'link', uses: { $lt: N } }, { $inc: { uses: 1 } }),
      ),
    );
    expect(results.filter((r) => r.modified === 1)).toHaveLength(N);
    expect((await links.findById('link'))!.uses).toBe(N);

    const claimed = await Promise.all(
      Array.from({ length: 100 }, () =>
        links.findOneAndUpdate({ _id: 'link2', uses: { $lt: N } }, { $inc: { uses: 1 } }),
      ),
    );
    const won = claimed.filter((d) => d !== null);
    expect(won).toHaveLength(N);
    expect(won.map((d) => d!.uses).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: N }, (_, i) => i + 1),
    );
  });

  it('loses none of 100 concurrent increments of one document', async () => {
    // FerretDB applies an update as read-then-write: unserialised, concurrent $inc overwrote each other.
    const hits = store.collection<Item>(fresh('hits'));
    await hits.insertOne({ _id: 'h', n: 0, seen: [] });
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        i % 2
          ? hits.updateOne({ _id: 'h' }, { $inc: { n: 1 }, $push: { seen: i } })
          : hits.findOneAndUpdate({ _id: 'h' }, { $inc: { n: 1 }, $push: { seen: i } }),
      ),
    );
    const doc = (await hits.findById('h'))!;
    expect(doc.n).toBe(100);
    expect((doc.seen as number[]).length).toBe(100);
  });

  it('hands out distinct sequence values to 200 concurrent callers', async () => {
    const name = fresh('seq');
    const values = await Promise.all(Array.from({ length: 200 }, () => store.nextSequence(name)));
    expect(new Set(values).size).toBe(200);
    expect(Math.min(...values)).toBe(1);
    expect(Math.max(...values)).toBe(200);
    const other = fresh('seq');
    expect(await store.nextSequence(other, 1000)).toBe(1000);
    expect(await store.nextSequence(other, 1000)).toBe(1001);
  });

  describe('transactions', () => {
    it('commits every write together, invisible to others until commit', async () => {
      const orders = fresh('orders');
      const lines = fresh('lines');
      store.collection<Item>(orders);
      await store.collection<Item>(lines).insertOne({ _id: 'l0', qty: 1 });
      const inside = deferred();
      const release = deferred();
      const tx = store.transaction(async (scope) => {
        await scope.collection<Item>(orders).insertOne({ _id: 'o1', total: 3 });
        await scope.collection<Item>(lines).insertMany([
          { _id: 'l1', order: 'o1' },
          { _id: 'l2', order: 'o1' },
        ]);
        await scope.collection<Item>(lines).updateOne({ _id: 'l0' }, { $set: { qty: 2 } });
        // The scope reads its own writes.
        expect(await scope.collection<Item>(orders).findById('o1')).toEqual({ _id: 'o1', total: 3 });
        expect(await scope.collection<Item>(lines).count({ order: 'o1' })).toBe(2);
        expect((await scope.collection<Item>(lines).findById('l0'))!.qty).toBe(2);
        inside.resolve();
        await release.promise;
        return 'done';
      });
      await inside.promise;
      if (verifiable('isolation', "a transaction's writes staying invisible to others until it commits")) {
        expect(await store.collection<Item>(orders).findById('o1')).toBeNull();
        expect(await store.collection<Item>(lines).count({ order: 'o1' })).toBe(0);
        expect((await store.collection<Item>(lines).findById('l0'))!.qty).toBe(1);
      }
      release.resolve();
      expect(await tx).toBe('done');
      expect(await store.collection<Item>(orders).findById('o1')).toEqual({ _id: 'o1', total: 3 });
      expect(await store.collection<Item>(lines).count({ order: 'o1' })).toBe(2);
      expect((await store.collection<Item>(lines).findById('l0'))!.qty).toBe(2);
    });

    it('stays all or nothing when its work lets the event loop run between batches, others reading meanwhile', async () => {
      // What royalties' long walks do (a million waiting lines opened 2,000 at a time): setImmediate between
      // batches so the service keeps answering; the transaction must not notice.
      const name = fresh('batched');
      const items = store.collection<Item>(name);
      await items.insertOne({ _id: 'before', v: 1 });
      const seen: number[] = [];
      const work = (fail: boolean) =>
        store.transaction(async (scope) => {
          for (let b = 0; b < 5; b += 1) {
            await scope
              .collection<Item>(name)
              .insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: `${fail}-${b}-${i}`, b })));
            await scope.collection<Item>(name).updateOne({ _id: 'before' }, { $inc: { v: 1 } });
            await new Promise((resolve) => setImmediate(resolve));
            // A request served between batches, outside the transaction.
            seen.push(await items.count({}));
          }
          expect(await scope.collection<Item>(name).count({})).toBe(101);
          if (fail) throw new Error('refused at its end');
          return 'done';
        });
      await expect(work(true)).rejects.toThrow('refused at its end');
      expect(await items.count({})).toBe(1);
      expect(await items.findById('before')).toEqual({ _id: 'before', v: 1 });
      if (verifiable('isolation', "a transaction's writes staying invisible to others until it commits"))
        expect(seen).toEqual([1, 1, 1, 1, 1]);
      seen.length = 0;
      expect(await work(false)).toBe('done');
      expect(await items.count({})).toBe(101);
      expect(await items.findById('before')).toEqual({ _id: 'before', v: 6 });
      if (verifiable('isolation', "a transaction's writes staying invisible to others until it commits"))
        expect(seen).toEqual([1, 1, 1, 1, 1]);
    });

    it('discards every write when the work throws', async () => {
      const name = fresh('aborted');
      const items = store.collection<Item>(name);
      await items.insertOne({ _id: 'keep', v: 1 });
      await expect(
        store.transaction(async (scope) => {
          await scope.collection<Item>(name).insertOne({ _id: 'gone', v: 2 });
          await scope.collection<Item>(name).updateOne({ _id: 'keep' }, { $set: { v: 99 } });
          await scope.collection<Item>(name).deleteOne({ _id: 'keep' });
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await items.findById('gone')).toBeNull();
      expect(await items.findById('keep')).toEqual({ _id: 'keep', v: 1 });
    });

    it('discards writes of every kind when the work throws', async () => {
      const name = fresh('undo');
      const items = store.collection<Item>(name, {
        indexes: [{ fields: { email: 1 }, unique: true, sparse: true }],
      });
      await items.insertMany([
        { _id: 'a', n: 1, email: 'a@x' },
        { _id: 'b', n: 2, tag: 't' },
        { _id: 'c', n: 3, tag: 't' },
        { _id: 'd', n: 4 },
      ]);
      const before = await items.find({}, { sort: { _id: 1 } });
      await expect(
        store.transaction(async (scope) => {
          const c = scope.collection<Item>(name);
          await c.insertOne({ _id: 'new', n: 0 });
          await c.updateOne({ _id: 'new' }, { $inc: { n: 5 } });
          await c.insertMany([{ _id: 'm1' }, { _id: 'm2' }]);
          await c.updateMany({ tag: 't' }, { $set: { tag: 'u' }, $push: { log: 'x' } });
          await c.findOneAndUpdate({ _id: 'a' }, { $set: { email: 'moved@x' } });
          // The key 'a' gave up is taken inside the same transaction.
          await c.insertOne({ _id: 'e', email: 'a@x' });
          await c.updateOne({ key: 'up' }, { $set: { v: 1 } }, { upsert: true });
          await c.findOneAndUpdate({ key: 'up2' }, { $set: { v: 2 } }, { upsert: true });
          await c.deleteOne({ _id: 'd' });
          await c.deleteMany({ n: { $gte: 2 } });
          expect(await c.count()).toBe(6);
          throw new Error('undo all');
        }),
      ).rejects.toThrow('undo all');
      expect(await items.find({}, { sort: { _id: 1 } })).toEqual(before);
      await expect(items.insertOne({ email: 'a@x' })).rejects.toBeInstanceOf(DuplicateKeyError);
    });

    it('keeps none of the writes of a process killed mid-transaction, once the store is opened again', async () => {
      const crashed = makeTarget();
      const name = 'crash';
      let other = crashed.open();
      try {
        await other.ready();
        await other.collection<Item>(name).insertMany([
          { _id: 'keep', v: 1 },
          { _id: 'doomed', v: 3 },
        ]);
        await other.close();
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', CRASH_CHILD, JSON.stringify({ ...crashed.child(), collection: name })],
          { stdio: ['ignore', 'pipe', 'inherit'] },
        );
        const exited = once(child, 'exit');
        try {
          await untilLine(child, 'inside', 30_000);
        } finally {
          child.kill('SIGKILL');
          await exited;
        }
        // At once: a journaled store's ready() waits for the crashed transaction's lease to run out and
        // rolls it back before anything else can write.
        other = crashed.open();
        await other.ready();
        expect(await other.collection<Item>(name).find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'doomed', v: 3 },
          { _id: 'keep', v: 1 },
        ]);
      } finally {
        await other.close();
        await crashed.cleanup();
      }
    }, 60_000);

    it('aborts as a whole on a duplicate key', async () => {
      const name = fresh('txuniq');
      const items = store.collection<Item>(name, { indexes: [{ fields: { email: 1 }, unique: true }] });
      await items.insertOne({ email: 'taken@x' });
      await expect(
        store.transaction(async (scope) => {
          await scope.collection<Item>(name).insertOne({ email: 'new@x' });
          await scope.collection<Item>(name).insertOne({ email: 'taken@x' });
        }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await items.count()).toBe(1);
    });
  });

  it('keeps everything across close and reopen', async () => {
    const name = fresh('persist');
    // Two indexes: declaring several existing ones again at the next start crashed FerretDB's connection.
    const spec: CollectionSpec = { indexes: [{ fields: { email: 1 }, unique: true }, { fields: { n: 1 } }] };
    const items = store.collection<Item>(name, spec);
    await items.insertMany([
      { _id: 'p1', email: 'p1@x', n: 1 },
      { _id: 'p2', email: 'p2@x', n: 2 },
    ]);
    await items.updateOne({ _id: 'p1' }, { $inc: { n: 10 } });
    await items.deleteOne({ _id: 'p2' });
    const seqName = fresh('persistseq');
    const last = Math.max(...(await Promise.all([1, 2, 3].map(() => store.nextSequence(seqName)))));
    await store.transaction(async (scope) => {
      await scope.collection<Item>(name).insertOne({ _id: 'p3', email: 'p3@x' });
    });
    await store.close();

    store = target.open();
    await store.ready();
    const reopened = store.collection<Item>(name, spec);
    expect(await reopened.find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 'p1', email: 'p1@x', n: 11 },
      { _id: 'p3', email: 'p3@x' },
    ]);
    await expect(reopened.insertOne({ email: 'p1@x' })).rejects.toBeInstanceOf(DuplicateKeyError);
    expect(await store.nextSequence(seqName)).toBe(last + 1);
  });
}
