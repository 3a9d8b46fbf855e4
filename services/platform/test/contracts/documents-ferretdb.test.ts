// The MongoDB adapter on a FerretDB of its own (started from the provisioned engine, scripts/engines): what
// only a server without transactions shows — the opt-in to journaled transactions, their leases — and what
// needs the engine under the test's control: a restart the store must ride through without being reopened.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import pino from 'pino';
import { ferretdb } from '../../../../scripts/engines/ferretdb';
import type { RunningEngine } from '../../../../scripts/engines/support';
import { createMongoDocumentStore, type MongoDocumentStoreOptions } from '../../src/adapters/documents-mongo';
import type { Doc, DocumentStore } from '../../src/ports/documents';

const notProvisioned = ferretdb.missing();
if (notProvisioned) {
  console.warn(
    `[documents-ferretdb] not verifiable on this machine: journaled transactions' leases, the opt-in, and ` +
      `a FerretDB restart (${notProvisioned})`,
  );
}

interface Item extends Doc {
  v?: number;
}

(notProvisioned ? describe.skip : describe)(`MongoDB adapter on FerretDB ${ferretdb.version}`, () => {
  let dataDir: string;
  let engine: RunningEngine;
  let uri: string;
  let seq = 0;
  const open: DocumentStore[] = [];
  const dbName = `omni_ferretdb_${process.pid}`;
  const openStore = (options: Partial<MongoDocumentStoreOptions> = {}) => {
    const store = createMongoDocumentStore({
      uri,
      dbName,
      serverSelectionTimeoutMS: 5000,
      transactions: 'journal',
      logger: pino({ level: 'silent' }),
      ...options,
    });
    open.push(store);
    return store;
  };
  /** The journal documents, read and changed behind the stores' backs. */
  const journals = async <R>(fn: (coll: mongoose.mongo.Collection) => Promise<R>): Promise<R> => {
    const conn = await mongoose.createConnection(uri, { dbName }).asPromise();
    try {
      return await fn(conn.db!.collection('_transactions'));
    } finally {
      await conn.close();
    }
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'omni-ferretdb-'));
    engine = await ferretdb.start({ dataDir });
    uri = engine.env.MONGODB_URI!;
  }, 60_000);

  afterEach(async () => {
    await Promise.allSettled(open.splice(0).map((s) => s.close()));
  });

  afterAll(async () => {
    await engine?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a server without transactions unless journaling is chosen, and says how to choose it', async () => {
    const strict = openStore({ transactions: 'server' });
    await expect(strict.ready()).rejects.toThrow(
      /is FerretDB: the documents port needs multi-document transactions.*set MONGODB_TRANSACTIONS=journal/,
    );
  });

  it('warns at start, when journaling, that isolation is lost', async () => {
    const lines: string[] = [];
    const store = openStore({
      logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
    });
    await store.ready();
    const warning = lines
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .find((l) => l.level === 40);
    expect(warning?.msg).toMatch(/no multi-document transactions: running them journaled.*without isolation/);
  });

  it('rolls back a transaction whose lease ran out; its next write and its commit fail', async () => {
    const name = `lease_${++seq}`;
    const store = openStore();
    await store.ready();
    await store.collection<Item>(name).insertOne({ _id: 'k', v: 1 });
    const sweeper = openStore({ journal: { leaseMs: 60_000, sweepEveryMs: 50 } });
    await sweeper.ready();

    // As if the process had stalled past its lease: another store rolls the transaction back.
    const expire = async () => {
      await journals((c) => c.updateMany({}, { $set: { leaseUntil: 0 } }));
      for (let i = 0; i < 100 && (await journals((c) => c.countDocuments({}))) > 0; i++)
        await new Promise((r) => setTimeout(r, 50));
    };
    const writeAfter = store.transaction(async (scope) => {
      await scope.collection<Item>(name).updateOne({ _id: 'k' }, { $set: { v: 2 } });
      await scope.collection<Item>(name).insertOne({ _id: 'n' });
      await expire();
      await scope.collection<Item>(name).insertOne({ _id: 'late' });
    });
    await expect(writeAfter).rejects.toThrow(/rolled back by another process because its lease ran out/);
    const commitAfter = store.transaction(async (scope) => {
      await scope.collection<Item>(name).updateOne({ _id: 'k' }, { $set: { v: 3 } });
      await expire();
    });
    await expect(commitAfter).rejects.toThrow(/lease ran out/);
    expect(await store.collection<Item>(name).find({})).toEqual([{ _id: 'k', v: 1 }]);
  });

  it('renews the lease of a transaction running longer than it', async () => {
    const name = `renew_${++seq}`;
    const store = openStore({ journal: { leaseMs: 300 } });
    await store.ready();
    const sweeper = openStore({ journal: { leaseMs: 300, sweepEveryMs: 50 } });
    await sweeper.ready();
    await store.transaction(async (scope) => {
      await scope.collection<Item>(name).insertOne({ _id: 'slow', v: 1 });
      await new Promise((r) => setTimeout(r, 1200));
      await scope.collection<Item>(name).updateOne({ _id: 'slow' }, { $inc: { v: 1 } });
    });
    expect(await store.collection<Item>(name).findById('slow')).toEqual({ _id: 'slow', v: 2 });
    expect(await journals((c) => c.countDocuments({}))).toBe(0);
  });

  it('carries on through a FerretDB restart without being reopened', async () => {
    const name = `restart_${++seq}`;
    const store = openStore({ serverSelectionTimeoutMS: 3000 });
    await store.ready();
    const items = store.collection<Item>(name, { indexes: [{ fields: { v: 1 }, unique: true }] });
    await items.insertOne({ _id: 'before', v: 1 });

    await engine.stop();
    expect(await store.healthy()).toBe(false);
    await expect(items.findById('before')).rejects.toThrow();
    engine = await ferretdb.start({ dataDir, ports: engine.ports });

    // The driver finds the server again on its own; the first operations may come before it has.
    for (let i = 0; i < 50 && !(await store.healthy()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await store.healthy()).toBe(true);
    expect(await items.findById('before')).toEqual({ _id: 'before', v: 1 });
    await items.insertOne({ _id: 'after', v: 2 });
    await expect(items.insertOne({ _id: 'again', v: 2 })).rejects.toThrow(/duplicate key/);
    await store.transaction(async (scope) => {
      await scope.collection<Item>(name).updateOne({ _id: 'after' }, { $set: { v: 3 } });
    });
    expect(await items.find({}, { sort: { _id: 1 } })).toEqual([
      { _id: 'after', v: 3 },
      { _id: 'before', v: 1 },
    ]);
  }, 60_000);

  it("keeps an upsert's null and empty-array $setOnInsert values, which FerretDB drops on its own", async () => {
    const store = openStore();
    await store.ready();
    type Payee = Item & { holds?: string[]; account?: null; email?: string };
    const c = store.collection<Payee>(`payees_${++seq}`);
    const insertOnly = { $setOnInsert: { holds: [], account: null, email: 'a@example.test' } };
    await c.updateOne({ _id: 'plain' }, insertOnly, { upsert: true });
    await store.transaction((scope) =>
      scope.collection<Payee>(c.name).updateOne({ _id: 'journaled' }, insertOnly, { upsert: true }),
    );
    const returned = await c.findOneAndUpdate({ _id: 'found' }, insertOnly, { upsert: true });
    expect(returned).toMatchObject({ holds: [], account: null });
    for (const id of ['plain', 'journaled', 'found'])
      expect(await c.findById(id)).toEqual({ _id: id, holds: [], account: null, email: 'a@example.test' });
    // Only on insert: an existing document keeps what it has.
    await c.updateOne({ _id: 'plain' }, { $set: { holds: ['tax'] } });
    await c.updateOne({ _id: 'plain' }, insertOnly, { upsert: true });
    expect((await c.findById('plain'))?.holds).toEqual(['tax']);
  }, 60_000);
});
