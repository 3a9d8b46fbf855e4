// Run by the contract's crash case in a process of its own: opens the store the parent describes, starts a
// transaction that writes in every way, says "inside" on stdout, and waits there to be killed (kill -9).
import { createMongoDocumentStore } from '../../src/adapters/documents-mongo';
import { createSqliteDocumentStore } from '../../src/adapters/documents-sqlite';
import type { ChildStoreSpec } from '../support/documents-targets';

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as ChildStoreSpec & { collection: string };
  const store =
    spec.kind === 'embedded'
      ? createSqliteDocumentStore({ dataDir: spec.dataDir })
      : createMongoDocumentStore({
          uri: spec.uri,
          dbName: spec.dbName,
          transactions: 'journal',
          journal: { leaseMs: spec.leaseMs },
        });
  await store.ready();
  void store.transaction(async (scope) => {
    const items = scope.collection(spec.collection);
    await items.insertOne({ _id: 'gone', v: 2 });
    await items.updateOne({ _id: 'keep' }, { $set: { v: 99 } });
    await items.insertMany([{ _id: 'many1' }, { _id: 'many2' }]);
    await items.deleteOne({ _id: 'doomed' });
    process.stdout.write('inside\n');
    await new Promise(() => undefined);
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
