// kill -9 durability of the embedded (SQLite) document store: a child process inserts, takes sequence numbers
// and commits transactions, printing each acknowledgement; the test SIGKILLs it mid-stream, reopens the
// store here and checks that every acknowledged write survived, transactions are all or nothing, and
// sequences never repeat. Three crash/recover rounds run on the same directory.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSqliteDocumentStore } from '../src/adapters/documents-sqlite';
import type { Doc } from '../src/ports/documents';

const CHILD = path.join(__dirname, 'crash', 'documents-crash-child.ts');
const REPO_ROOT = path.resolve(__dirname, '../../..');

interface Child {
  process: ChildProcess;
  lines: string[];
  exited: Promise<NodeJS.Signals | number | null>;
  stderr: () => string;
}

function startChild(dataDir: string): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  const lines: string[] = [];
  let partial = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  return { process: child, lines, exited, stderr: () => stderr };
}

async function waitFor(check: () => boolean, ms: number, what: string, child: Child): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; child stderr: ${child.stderr()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('embedded (SQLite) document store survives kill -9', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-docs-crash-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const acknowledged = { inserts: new Map<string, string>(), txs: new Set<string>(), maxSeq: 0 };

  it.each([
    [1, 400],
    [2, 900],
    [3, 250],
  ])('round %i: kill after %i acknowledgements, reopen, verify', async (_round, killAfter) => {
    const child = startChild(dataDir);
    const acks = () => child.lines.filter((l) => l !== 'READY').length;
    await waitFor(() => acks() >= killAfter, 20_000, `${killAfter} acknowledgements`, child);
    child.process.kill('SIGKILL');
    expect(await child.exited).toBe('SIGKILL');

    for (const line of child.lines) {
      const [kind, a, b] = line.split(' ');
      if (kind === 'INS') acknowledged.inserts.set(a!, b!);
      else if (kind === 'SEQ') acknowledged.maxSeq = Math.max(acknowledged.maxSeq, Number(a));
      else if (kind === 'TX') acknowledged.txs.add(a!);
    }

    const store = createSqliteDocumentStore({ dataDir });
    try {
      await store.ready();
      const items = store.collection<Doc & { key: string }>('items', {
        indexes: [{ fields: { key: 1 }, unique: true }],
      });
      const all = new Map((await items.find({})).map((d) => [d._id, d]));
      for (const [id, key] of acknowledged.inserts) expect(all.get(id)?.key).toBe(key);

      const ledgerIds = new Set((await store.collection('ledger').find({})).map((d) => d._id));
      const txItems = [...all.keys()].filter((id) => id.startsWith('t-'));
      for (const tag of acknowledged.txs) expect(ledgerIds.has(`t-${tag}`)).toBe(true);
      // All or nothing: each committed transaction left both documents and exactly one increment.
      expect(new Set(txItems)).toEqual(ledgerIds);
      const tally = await store.collection<Doc & { n: number }>('tally').findById('total');
      expect(tally?.n ?? 0).toBe(ledgerIds.size);

      // Sequences never go back, even for values whose acknowledgement the kill swallowed.
      expect(await store.nextSequence('crash')).toBeGreaterThan(acknowledged.maxSeq);
      // The unique index still holds after recovery.
      const [firstId, firstKey] = [...acknowledged.inserts][0]!;
      await expect(items.insertOne({ key: firstKey })).rejects.toThrow(/duplicate key/);
      expect(firstId).toBeDefined();
    } finally {
      await store.close();
    }
  });
});
