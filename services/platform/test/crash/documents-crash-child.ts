// Child process for the documents kill -9 test: opens the SQLite document store in the directory given as
// argv[2] and writes as fast as it can from several concurrent workers,
// printing one line per acknowledged write. Lines are printed only after the store acknowledged the write,
// so every printed line must survive the SIGKILL that ends this process.
//   INS <id> <key>   an insertOne into `items`
//   SEQ <value>      a nextSequence('crash')
//   TX <n>           a transaction: items/t<n>, ledger/t<n>, and $inc of tally/total by 1
import { createSqliteDocumentStore } from '../../src/adapters/documents-sqlite';

const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: documents-crash-child <dataDir>');

const store = createSqliteDocumentStore({ dataDir });
const items = store.collection('items', { indexes: [{ fields: { key: 1 }, unique: true }] });
const run = `${process.pid}`;
const deadline = Date.now() + 20_000;
const pad = 'x'.repeat(200);

function print(line: string): void {
  // stdout to a pipe is synchronous on Linux: once this returns, the parent can read the line.
  process.stdout.write(`${line}\n`);
}

async function worker(w: number): Promise<void> {
  for (let i = 0; Date.now() < deadline; i++) {
    const tag = `${run}-${w}-${i}`;
    switch (i % 3) {
      case 0: {
        const doc = await items.insertOne({ _id: `i-${tag}`, key: `k-${tag}`, pad });
        print(`INS ${doc._id} k-${tag}`);
        break;
      }
      case 1:
        print(`SEQ ${await store.nextSequence('crash')}`);
        break;
      default:
        await store.transaction(async (scope) => {
          await scope.collection('items').insertOne({ _id: `t-${tag}`, key: `tk-${tag}`, pad });
          await scope.collection('ledger').insertOne({ _id: `t-${tag}`, pad });
          await scope.collection('tally').updateOne({ _id: 'total' }, { $inc: { n: 1 } }, { upsert: true });
        });
        print(`TX ${tag}`);
    }
  }
}

void (async () => {
  await store.ready();
  print('READY');
  await Promise.all([0, 1, 2, 3].map(worker));
  await store.close();
  print('DONE');
})().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
