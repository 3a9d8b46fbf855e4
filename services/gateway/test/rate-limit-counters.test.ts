import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, createPorts, type DocumentStore, loadConfig, type Ports } from '@omni/platform';
import { rateLimitCounters } from '../src/providers/rate-limit/counters';

// The gateway's choice of where sign-in attempts are counted. An embedded store stands in for MongoDB
// (the documents contract suite holds both to the same behaviour).
let dir: string;
let ports: Ports;
let store: DocumentStore;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'omni-gw-limits-'));
  ports = createPorts(loadConfig({ DATA_DIR: dir }, []), createLogger('test'));
  store = await ports.documents('gateway');
});
afterEach(async () => {
  await ports.closeAll();
  rmSync(dir, { recursive: true, force: true });
});

const ctx = (documentStore: 'embedded' | 'mongodb', documents: () => Promise<DocumentStore>) =>
  ({
    config: { env: { DOCUMENT_STORE: documentStore } },
    ports: { documents },
    logger: { warn: () => undefined },
  }) as never;

it('counts in memory with the embedded store, without opening a store for the gateway', async () => {
  const documents = jest.fn(async () => store);
  const limits = rateLimitCounters(ctx('embedded', documents));
  expect((await limits.store.hit('login:email:a@example.com', 60_000)).count).toBe(1);
  expect(documents).not.toHaveBeenCalled();
  expect(limits.fallback).toBeUndefined();
});

it('with MongoDB, counts in the shared store, and tries again after the database was unreachable', async () => {
  let reachable = false;
  const documents = jest.fn(async () => {
    if (!reachable) throw new Error('documents (mongodb) for gateway is not reachable: timed out');
    return store;
  });
  const limits = rateLimitCounters(ctx('mongodb', documents));
  await expect(limits.store.hit('login:email:a@example.com', 60_000)).rejects.toThrow('not reachable');
  reachable = true;
  expect((await limits.store.hit('login:email:a@example.com', 60_000)).count).toBe(1);
  expect((await limits.store.hit('login:email:a@example.com', 60_000)).count).toBe(2);
  expect(await store.collection('rate_limit_windows').count()).toBe(1);
  expect(limits.fallback).toBeDefined();
});
