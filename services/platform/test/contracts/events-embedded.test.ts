// Behaviour specific to the embedded log that the shared contract cannot see: on-disk recovery,
// single-owner locking, rebalancing at record boundaries, closing during a retry.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmbeddedEventBus } from '../../src/adapters/events-embedded';
import { GroupOffsets } from '../../src/adapters/events-embedded/group-offsets';
import { createLogger } from '../../src/logging/logger';
import type { EventBus, IncomingMessage } from '../../src/ports/events';
import { collector, sleep, waitUntil } from '../support/events-harness';

let dataDir: string;
const open: EventBus[] = [];
const openBus = (options: { partitions?: number; recentRecords?: number; fsync?: boolean } = {}) => {
  const bus = createEmbeddedEventBus({ dataDir, ...options });
  open.push(bus);
  return bus;
};
const logFile = (topic: string, partition: number) =>
  path.join(dataDir, 'events', 'topics', topic, `${partition}.log`);

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-events-embedded-'));
});
afterEach(async () => {
  for (const bus of open.splice(0)) await bus.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function readTopic(
  bus: EventBus,
  topic: string,
  count: number,
  timeoutMs = 5000,
): Promise<IncomingMessage[]> {
  const got = collector();
  const sub = await bus.subscribe({
    groupId: `read-${Math.random()}`,
    topics: [topic],
    handler: got.handler,
  });
  await got.waitFor(count, timeoutMs);
  await sleep(30);
  await sub.close();
  return got.received;
}

describe('embedded event log on disk', () => {
  it('cuts a torn last record on reopen and continues at the next offset', async () => {
    const bus = openBus({ partitions: 1 });
    await bus.publish(
      'torn',
      [1, 2, 3].map((i) => ({ key: 'k', value: `v${i}` })),
    );
    await bus.close();
    const file = logFile('torn', 0);
    const intact = fs.readFileSync(file, 'utf8');
    fs.appendFileSync(file, '{"o":3,"t":1700000000000,"k":"k","v":"half-writ'); // killed mid-write

    const reopened = openBus({ partitions: 1 });
    await reopened.publish('torn', [{ key: 'k', value: 'v4' }]);
    const messages = await readTopic(reopened, 'torn', 4);
    expect(messages.map((m) => [m.offset, m.value])).toEqual([
      ['0', 'v1'],
      ['1', 'v2'],
      ['2', 'v3'],
      ['3', 'v4'],
    ]);
    const lines = fs.readFileSync(file, 'utf8');
    expect(lines.startsWith(intact)).toBe(true);
    expect(
      lines
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).v),
    ).toEqual(['v1', 'v2', 'v3', 'v4']);
  });

  it('drops a complete but corrupt or misnumbered tail line rather than serving it', async () => {
    const bus = openBus({ partitions: 1 });
    await bus.publish('corrupt', [{ key: 'k', value: 'good' }]);
    await bus.close();
    fs.appendFileSync(logFile('corrupt', 0), '{"o":7,"t":1,"k":"k","v":"wrong offset","h":{}}\n');

    const reopened = openBus({ partitions: 1 });
    await reopened.publish('corrupt', [{ key: 'k', value: 'next' }]);
    const messages = await readTopic(reopened, 'corrupt', 2);
    expect(messages.map((m) => [m.offset, m.value])).toEqual([
      ['0', 'good'],
      ['1', 'next'],
    ]);
  });

  it('allows one open bus per data directory, and reopening after close', async () => {
    const bus = openBus();
    expect(() => createEmbeddedEventBus({ dataDir })).toThrow(/already open/);
    await bus.close();
    expect(() => openBus()).not.toThrow();
  });

  it('refuses a data directory locked by another live process', () => {
    fs.mkdirSync(path.join(dataDir, 'events'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'events', 'LOCK'), String(process.ppid));
    expect(() => createEmbeddedEventBus({ dataDir })).toThrow(/in use by process/);
  });

  it('takes over a lock left by a process that no longer exists', () => {
    fs.mkdirSync(path.join(dataDir, 'events'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'events', 'LOCK'), '999999999');
    expect(() => openBus()).not.toThrow();
  });

  it('keeps a topic partition count across reopen', async () => {
    const bus = openBus();
    await bus.ensureTopics(['five'], 5);
    await bus.close();
    const reopened = openBus();
    await reopened.ensureTopics(['five'], 2); // an existing topic keeps its partitions
    const keys = Array.from({ length: 60 }, (_, i) => `key-${i}`);
    await reopened.publish(
      'five',
      keys.map((key) => ({ key, value: key })),
    );
    const messages = await readTopic(reopened, 'five', keys.length);
    expect(new Set(messages.map((m) => m.partition))).toEqual(new Set([0, 1, 2, 3, 4]));
  });
});

describe('embedded event log memory', () => {
  // With only the latest 8 records in memory, everything older is read back from the file.
  const values = (messages: IncomingMessage[]) => messages.map((m) => [m.offset, m.key, m.value]);
  const published = Array.from({ length: 500 }, (_, i) => ({
    key: `k${i % 7}`,
    // Multi-byte text and varying lengths, so byte positions differ from character counts.
    value: `${'é'.repeat(i % 13)}value ${i} ${'x'.repeat((i * 37) % 300)}`,
  }));

  it('serves the whole history to a new group from disk, in order, with only the latest records in memory', async () => {
    const bus = openBus({ partitions: 1, recentRecords: 8, fsync: false });
    for (let i = 0; i < published.length; i += 50) await bus.publish('history', published.slice(i, i + 50));
    const expected = published.map((m, i) => [String(i), m.key, m.value]);
    expect(values(await readTopic(bus, 'history', 500, 20_000))).toEqual(expected);

    // After a restart the history is still read back, and new records follow at the next offset.
    await bus.close();
    const reopened = openBus({ partitions: 1, recentRecords: 8, fsync: false });
    await reopened.publish('history', [{ key: 'after', value: 'restart' }]);
    expect(values(await readTopic(reopened, 'history', 501, 20_000))).toEqual([
      ...expected,
      ['500', 'after', 'restart'],
    ]);
  });

  it('recovers a log larger than one read chunk, with a torn tail, keeping every whole record', async () => {
    const bus = openBus({ partitions: 1, recentRecords: 8, fsync: false });
    const big = Array.from({ length: 1200 }, (_, i) => ({ key: 'k', value: `${i}:${'y'.repeat(1500)}` }));
    for (let i = 0; i < big.length; i += 200) await bus.publish('large', big.slice(i, i + 200));
    await bus.close();
    expect(fs.statSync(logFile('large', 0)).size).toBeGreaterThan(1024 * 1024);
    fs.appendFileSync(logFile('large', 0), '{"o":1200,"t":1,"k":"k","v":"torn');

    const reopened = openBus({ partitions: 1, recentRecords: 8, fsync: false });
    const messages = await readTopic(reopened, 'large', 1200, 20_000);
    expect(messages.map((m) => m.value)).toEqual(big.map((m) => m.value));
    await reopened.publish('large', [{ key: 'k', value: 'next' }]);
    const again = await readTopic(reopened, 'large', 1201, 20_000);
    expect(again.at(-1)).toMatchObject({ offset: '1200', value: 'next' });
  });

  it('pauses a partition whose file changed under it and reports unhealthy, instead of handing out the wrong event', async () => {
    const bus = openBus({ partitions: 1, recentRecords: 8, fsync: false });
    await bus.publish('tampered', published.slice(0, 40));
    const file = logFile('tampered', 0);
    // Same length, another offset number: the first line no longer says it is record 0.
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('{"o":0,', '{"o":9,'));
    expect(await bus.healthy()).toBe(true);
    const got = collector();
    const sub = await bus.subscribe({
      groupId: 'tampered-reader',
      topics: ['tampered'],
      handler: got.handler,
    });
    // Generous: a loaded CI machine may take a while to run the consumer loop.
    for (let i = 0; i < 500 && (await bus.healthy()); i++) await sleep(10);
    expect(await bus.healthy()).toBe(false);
    // New records do not make it skip ahead either.
    await bus.publish('tampered', [{ key: 'k', value: 'later' }]);
    await sleep(50);
    expect(got.received).toEqual([]);
    await sub.close();
  });
});

describe('embedded consumer groups', () => {
  it('delivers only new messages when fromBeginning is false', async () => {
    const bus = openBus();
    await bus.publish('latest', [{ key: 'a', value: 'old' }]);
    const got = collector();
    const sub = await bus.subscribe({
      groupId: 'g',
      topics: ['latest'],
      handler: got.handler,
      fromBeginning: false,
    });
    await bus.publish('latest', [{ key: 'a', value: 'new' }]);
    await got.waitFor(1, 5000);
    await sleep(30);
    await sub.close();
    expect(got.received.map((m) => m.value)).toEqual(['new']);
  });

  it('moves a leaving member partitions to the others after its in-flight message, without redelivery', async () => {
    const bus = openBus({ partitions: 3 });
    await bus.ensureTopics(['rebalance']);
    let releaseA!: () => void;
    const gate = new Promise<void>((resolve) => {
      releaseA = resolve;
    });
    const seenA: IncomingMessage[] = [];
    const seenB: IncomingMessage[] = [];
    const subA = await bus.subscribe({
      groupId: 'workers',
      topics: ['rebalance'],
      handler: async (m) => {
        seenA.push(m);
        await gate; // A is slow: it is still busy when it leaves
      },
    });
    const subB = await bus.subscribe({
      groupId: 'workers',
      topics: ['rebalance'],
      handler: async (m) => {
        seenB.push(m);
      },
    });
    const total = 60;
    await bus.publish(
      'rebalance',
      Array.from({ length: total }, (_, i) => ({ key: `k${i % 20}`, value: String(i) })),
    );
    await waitUntil(() => seenA.length > 0, 5000, 'member A to start a message');
    const closing = subA.close();
    await sleep(20);
    expect(seenA.length).toBeLessThanOrEqual(2); // A started nothing new after leaving (≤ 1 per partition it had)
    releaseA();
    await closing;
    await waitUntil(() => seenA.length + seenB.length >= total, 5000, 'every message');
    await sleep(30);
    await subB.close();

    const values = [...seenA, ...seenB].map((m) => Number(m.value)).sort((a, b) => a - b);
    expect(values).toEqual([...Array(total).keys()]);
  });

  it('closing during a retry backoff returns promptly and leaves the message for the next subscriber', async () => {
    const bus = openBus();
    const first: IncomingMessage[] = [];
    const sub = await bus.subscribe({
      groupId: 'g',
      topics: ['flaky'],
      retry: { maxAttempts: 5, initialBackoffMs: 10_000, maxBackoffMs: 10_000 },
      handler: async (m) => {
        first.push(m);
        throw new Error('not yet');
      },
    });
    await bus.publish('flaky', [{ key: 'k', value: 'payload' }]);
    await waitUntil(() => first.length === 1, 5000, 'the first attempt');
    const started = Date.now();
    await sub.close();
    expect(Date.now() - started).toBeLessThan(2000); // not the 10 s backoff

    const second = collector();
    const sub2 = await bus.subscribe({ groupId: 'g', topics: ['flaky'], handler: second.handler });
    await second.waitFor(1, 5000);
    await sub2.close();
    expect(second.received[0]).toMatchObject({ value: 'payload', attempt: 1, offset: first[0]!.offset });
  });

  it('rejects calls after close and reports unhealthy', async () => {
    const bus = openBus();
    expect(await bus.healthy()).toBe(true);
    await bus.ready();
    await bus.close();
    expect(await bus.healthy()).toBe(false);
    await expect(bus.publish('t', [{ key: 'k', value: 'v' }])).rejects.toThrow(/closed/);
    await expect(
      bus.subscribe({ groupId: 'g', topics: ['t'], handler: async () => undefined }),
    ).rejects.toThrow(/closed/);
  });
});

describe('embedded consumer offsets file', () => {
  const silent = createLogger('events-embedded-test');
  const root = () => path.join(dataDir, 'events');

  it('keeps the latest commit per partition across reload and compacts the commit log', async () => {
    const offsets = GroupOffsets.load(root(), 'g/../weird id', {
      fsync: true,
      logger: silent,
      compactAfterLines: 10,
    });
    for (let i = 1; i <= 50; i++) await offsets.commit('t', i % 3, i);
    await offsets.commit('other', 0, 7);
    await offsets.close();
    const files = fs.readdirSync(path.join(root(), 'groups'));
    expect(files).toHaveLength(1); // the group id became a safe file name, not a path
    const lineCount = fs
      .readFileSync(path.join(root(), 'groups', files[0]!), 'utf8')
      .trim()
      .split('\n').length;
    expect(lineCount).toBeLessThanOrEqual(10);

    const reloaded = GroupOffsets.load(root(), 'g/../weird id', { fsync: true, logger: silent });
    expect([
      reloaded.get('t', 0),
      reloaded.get('t', 1),
      reloaded.get('t', 2),
      reloaded.get('other', 0),
    ]).toEqual([48, 49, 50, 7]);
    expect(reloaded.get('t', 9)).toBeUndefined();
    await reloaded.close();
  });

  it('ignores and cuts a torn last commit', async () => {
    const offsets = GroupOffsets.load(root(), 'g', { fsync: true, logger: silent });
    await offsets.commit('t', 0, 5);
    await offsets.close();
    const [file] = fs.readdirSync(path.join(root(), 'groups'));
    fs.appendFileSync(path.join(root(), 'groups', file!), '{"t":"t","p":0,"o":9');
    const reloaded = GroupOffsets.load(root(), 'g', { fsync: true, logger: silent });
    expect(reloaded.get('t', 0)).toBe(5);
    await reloaded.commit('t', 0, 6);
    await reloaded.close();
    expect(GroupOffsets.load(root(), 'g', { fsync: true, logger: silent }).get('t', 0)).toBe(6);
  });
});
