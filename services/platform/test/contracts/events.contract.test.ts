// Contract suite for the EventBus port: the same cases against the embedded log (always) and Kafka
// (when KAFKA_BROKERS is set). A target that cannot run says so in the output; it is never silently green.

import { Kafka, logLevel } from 'kafkajs';
import { kafka as kafkaEngine } from '../../../../scripts/engines/kafka';
import { DLQ_HEADERS, deadLetterTopic, type EventBus, type IncomingMessage } from '../../src/ports/events';
import {
  collector,
  type EventBusTarget,
  embeddedTarget,
  kafkaTarget,
  offsetOf,
  sleep,
  waitUntil,
} from '../support/events-harness';
import { ADAPTER_APIS, commonApiVersions, kafkajsVersion } from '../support/events-kafka-api-versions';

const kafkaBrokers = process.env.KAFKA_BROKERS?.trim();

describeContract('embedded', embeddedTarget, 15_000);

if (!kafkaBrokers) {
  console.warn(
    '[contract] kafka: SKIPPED — KAFKA_BROKERS not set (set it to host:port[,host:port] to run this suite)',
  );
}
(kafkaBrokers ? describe : describe.skip)(
  `EventBus contract: kafka${kafkaBrokers ? '' : ' (SKIPPED: KAFKA_BROKERS not set)'}`,
  () => {
    if (kafkaBrokers) {
      // The broker's own version is not on the wire; KAFKA_VERSION names it when it is not the one
      // scripts/engines provisions.
      const brokerVersion = process.env.KAFKA_VERSION?.trim() || kafkaEngine.version;
      test(`kafkajs ${kafkajsVersion} ↔ Kafka ${brokerVersion}: every API the adapter sends has a version both speak`, async () => {
        const [host, port] = kafkaBrokers.split(',')[0]!.trim().split(':');
        const common = await commonApiVersions(host!, Number(port));
        const none = ADAPTER_APIS.filter((api) => common[api] === null);
        expect(none).toEqual([]);
        // And kafkajs' own handshake (ApiVersions, then Metadata) goes through.
        const admin = new Kafka({
          clientId: 'omni-contract',
          brokers: [`${host}:${port}`],
          logLevel: logLevel.NOTHING,
        }).admin();
        await admin.connect();
        try {
          const cluster = await admin.describeCluster();
          expect(cluster.brokers.length).toBeGreaterThan(0);
          expect(cluster.clusterId).toMatch(/\S/);
        } finally {
          await admin.disconnect();
        }
      });
      contractCases(() => kafkaTarget(kafkaBrokers), 120_000);
    } else it('runs only with KAFKA_BROKERS', () => undefined);
  },
);

function describeContract(name: string, makeTarget: () => EventBusTarget, testTimeoutMs: number): void {
  describe(`EventBus contract: ${name}`, () => contractCases(makeTarget, testTimeoutMs));
}

/** `testTimeoutMs` per case: a real broker spends seconds in group joins and rebalances. */
function contractCases(makeTarget: () => EventBusTarget, testTimeoutMs: number): void {
  const it = (name: string, fn: () => Promise<void>) => test(name, fn, testTimeoutMs);
  let target: EventBusTarget;
  let bus: EventBus;
  const extraBuses: EventBus[] = [];

  beforeAll(() => {
    target = makeTarget();
  });
  beforeEach(() => {
    bus = target.open();
  });
  afterEach(async () => {
    await bus.close();
    for (const other of extraBuses.splice(0)) await other.close();
  });
  afterAll(async () => {
    await target.cleanup();
  });

  const timeout = () => target.timeoutMs;

  it('delivers a published message to a subscriber with every field', async () => {
    const topic = target.unique('roundtrip');
    await bus.ensureTopics([topic]);
    const got = collector();
    const sub = await bus.subscribe({ groupId: target.unique('g'), topics: [topic], handler: got.handler });
    await target.settle();
    const before = Date.now();
    await bus.publish(topic, [
      { key: 'release-1', value: '{"hello":"world"}', headers: { 'x-test': 'yes' } },
    ]);
    await got.waitFor(1, timeout());
    await sub.close();

    const [message] = got.received;
    expect(message).toMatchObject({
      topic,
      key: 'release-1',
      value: '{"hello":"world"}',
      attempt: 1,
      headers: { 'x-test': 'yes' },
    });
    expect(message!.offset).toMatch(/^\d+$/);
    expect(message!.partition).toBeGreaterThanOrEqual(0);
    expect(message!.partition).toBeLessThan(3);
    expect(message!.timestamp).toBeGreaterThanOrEqual(before - 5000);
    expect(message!.timestamp).toBeLessThanOrEqual(Date.now() + 5000);
    expect(got.received).toHaveLength(1);
  });

  it('keeps the order of one key and sends one key to one partition', async () => {
    const topic = target.unique('ordering');
    await bus.ensureTopics([topic], 3);
    const keys = ['a', 'b', 'c', 'd', 'e'];
    const perKey = 12;
    // Concurrent publishes of different keys, each key's messages published in order.
    await Promise.all(
      keys.map(async (key) => {
        for (let seq = 0; seq < perKey; seq++) await bus.publish(topic, [{ key, value: String(seq) }]);
      }),
    );
    const got = collector();
    const sub = await bus.subscribe({ groupId: target.unique('g'), topics: [topic], handler: got.handler });
    await got.waitFor(keys.length * perKey, timeout());
    await sub.close();

    for (const key of keys) {
      const mine = got.received.filter((m) => m.key === key);
      expect(mine.map((m) => Number(m.value))).toEqual([...Array(perKey).keys()]);
      expect(new Set(mine.map((m) => m.partition)).size).toBe(1);
      const offsets = mine.map(offsetOf);
      expect(offsets).toEqual([...offsets].sort((x, y) => x - y));
    }
  });

  it('gives every message to each of two consumer groups', async () => {
    const topic = target.unique('fanout');
    await bus.ensureTopics([topic]);
    const first = collector('first group');
    const second = collector('second group');
    const subs = await Promise.all([
      bus.subscribe({ groupId: target.unique('g1'), topics: [topic], handler: first.handler }),
      bus.subscribe({ groupId: target.unique('g2'), topics: [topic], handler: second.handler }),
    ]);
    await target.settle();
    const messages = Array.from({ length: 20 }, (_, i) => ({ key: `k${i % 7}`, value: `m${i}` }));
    await bus.publish(topic, messages);
    await Promise.all([first.waitFor(20, timeout()), second.waitFor(20, timeout())]);
    await Promise.all(subs.map((s) => s.close()));

    const values = messages.map((m) => m.value).sort();
    expect(first.received.map((m) => m.value).sort()).toEqual(values);
    expect(second.received.map((m) => m.value).sort()).toEqual(values);
  });

  it('resumes a group after its last committed message when the bus is closed and reopened', async () => {
    const topic = target.unique('resume');
    const groupId = target.unique('g');
    await bus.ensureTopics([topic]);
    const total = 30;
    await bus.publish(
      topic,
      Array.from({ length: total }, (_, i) => ({ key: `k${i % 5}`, value: String(i) })),
    );

    const firstRun = collector('first run');
    const sub = await bus.subscribe({ groupId, topics: [topic], handler: firstRun.handler });
    await firstRun.waitFor(10, timeout());
    await sub.close();
    await bus.close();
    const handledBeforeClose = firstRun.received.length;

    bus = target.open();
    const secondRun = collector('second run');
    const sub2 = await bus.subscribe({ groupId, topics: [topic], handler: secondRun.handler });
    await secondRun.waitFor(total - handledBeforeClose, timeout());
    // Give a redelivery (which would be a bug here) the chance to show up.
    await sleep(target.name === 'kafka' ? 2000 : 100);
    await sub2.close();

    const all = [...firstRun.received, ...secondRun.received]
      .map((m) => Number(m.value))
      .sort((a, b) => a - b);
    expect(all).toEqual([...Array(total).keys()]); // nothing lost, nothing handled twice
    const firstSeen = new Set(firstRun.received.map((m) => m.value));
    expect(secondRun.received.filter((m) => firstSeen.has(m.value))).toEqual([]);
  });

  it('retries with growing backoff, dead-letters after maxAttempts, and keeps other partitions flowing', async () => {
    const topic = target.unique('retry');
    await bus.ensureTopics([topic], 3);
    const attempts: Array<{ attempt: number; at: number }> = [];
    const good: Array<IncomingMessage & { at: number }> = [];
    const retry = { maxAttempts: 3, initialBackoffMs: 150, maxBackoffMs: 400 };
    const sub = await bus.subscribe({
      groupId: target.unique('g'),
      topics: [topic],
      retry,
      handler: async (m) => {
        if (m.key === 'poison' && m.value === 'bad') {
          attempts.push({ attempt: m.attempt, at: Date.now() });
          throw new Error('cannot handle this one');
        }
        good.push({ ...m, at: Date.now() });
      },
    });
    const dead = collector('dead letters');
    const dlqSub = await bus.subscribe({
      groupId: target.unique('dlq-reader'),
      topics: [deadLetterTopic(topic)],
      handler: dead.handler,
    });
    await target.settle();
    await bus.publish(topic, [{ key: 'poison', value: 'bad', headers: { traceparent: TRACEPARENT } }]);
    await bus.publish(
      topic,
      Array.from({ length: 12 }, (_, i) => ({ key: `other-${i}`, value: `ok-${i}` })),
    );
    // A later message with the poison key: handled once the bad one is out of the way.
    await bus.publish(topic, [{ key: 'poison', value: 'after' }]);
    await dead.waitFor(1, timeout());
    await waitUntil(() => good.length >= 13, timeout(), 'the good messages');
    await Promise.all([sub.close(), dlqSub.close()]);

    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    const gap1 = attempts[1]!.at - attempts[0]!.at;
    const gap2 = attempts[2]!.at - attempts[1]!.at;
    expect(gap1).toBeGreaterThanOrEqual(retry.initialBackoffMs - 5); // timer granularity
    expect(gap2).toBeGreaterThanOrEqual(2 * retry.initialBackoffMs - 5);

    const [letter] = dead.received;
    expect(letter).toMatchObject({ key: 'poison', value: 'bad', topic: deadLetterTopic(topic) });
    expect(letter!.headers).toMatchObject({
      traceparent: TRACEPARENT,
      [DLQ_HEADERS.originalTopic]: topic,
      [DLQ_HEADERS.attempts]: '3',
      [DLQ_HEADERS.error]: expect.stringContaining('cannot handle this one'),
    });
    expect(letter!.headers[DLQ_HEADERS.originalPartition]).toMatch(/^\d+$/);
    expect(letter!.headers[DLQ_HEADERS.originalOffset]).toMatch(/^\d+$/);
    expect(dead.received).toHaveLength(1);

    // Other partitions were not held up while the poison message waited out its backoff.
    const poisonPartition = Number(letter!.headers[DLQ_HEADERS.originalPartition]);
    const elsewhere = good.filter((m) => m.partition !== poisonPartition && m.value.startsWith('ok-'));
    expect(elsewhere.length).toBeGreaterThan(0);
    expect(Math.min(...elsewhere.map((m) => m.at))).toBeLessThan(attempts[2]!.at);
    // The poison key's next message came after the dead-lettered one, on the same partition.
    const after = good.find((m) => m.value === 'after');
    expect(after?.partition).toBe(poisonPartition);
    expect(after!.at).toBeGreaterThanOrEqual(attempts[2]!.at);
  });

  it('replays dead letters onto the original topic once', async () => {
    const topic = target.unique('replay');
    await bus.ensureTopics([topic, deadLetterTopic(topic)]);
    let broken = true;
    const handled: IncomingMessage[] = [];
    const sub = await bus.subscribe({
      groupId: target.unique('g'),
      topics: [topic],
      retry: { maxAttempts: 2, initialBackoffMs: 5, maxBackoffMs: 10 },
      handler: async (m) => {
        if (broken) throw new Error('downstream is down');
        handled.push(m);
      },
    });
    await target.settle();
    await bus.publish(topic, [
      { key: 'r1', value: 'one', headers: { traceparent: TRACEPARENT } },
      { key: 'r2', value: 'two' },
    ]);
    expect(await bus.replayDeadLetters(target.unique('never-failed'))).toBe(0);
    // Wait for both to reach the DLQ (read with a throwaway group).
    const dead = collector('dead letters');
    const dlqSub = await bus.subscribe({
      groupId: target.unique('dlq-reader'),
      topics: [deadLetterTopic(topic)],
      handler: dead.handler,
    });
    await dead.waitFor(2, timeout());
    await dlqSub.close();

    broken = false;
    expect(await bus.replayDeadLetters(topic)).toBe(2);
    await waitUntil(() => handled.length >= 2, timeout(), 'the replayed messages');
    expect(await bus.replayDeadLetters(topic)).toBe(0); // already replayed
    await sleep(target.name === 'kafka' ? 2000 : 50);
    await sub.close();

    expect(handled.map((m) => m.value).sort()).toEqual(['one', 'two']);
    const one = handled.find((m) => m.value === 'one')!;
    expect(one.key).toBe('r1');
    expect(one.attempt).toBe(1);
    expect(one.headers.traceparent).toBe(TRACEPARENT);
    for (const name of Object.values(DLQ_HEADERS)) expect(one.headers[name]).toBeUndefined();
  });

  it('splits partitions between members of one group and handles each message exactly once', async () => {
    const topic = target.unique('members');
    const groupId = target.unique('g');
    await bus.ensureTopics([topic], 3);
    const byMember: IncomingMessage[][] = [[], []];
    const subs = await Promise.all(
      [0, 1].map((i) =>
        bus.subscribe({
          groupId,
          topics: [topic],
          handler: async (m) => {
            byMember[i]!.push(m);
          },
        }),
      ),
    );
    await target.settle();
    const total = 90;
    await bus.publish(
      topic,
      Array.from({ length: total }, (_, i) => ({ key: `key-${i % 30}`, value: String(i) })),
    );
    await waitUntil(() => byMember[0]!.length + byMember[1]!.length >= total, timeout(), `${total} messages`);
    await sleep(target.name === 'kafka' ? 2000 : 50);
    await Promise.all(subs.map((s) => s.close()));

    const all = byMember
      .flat()
      .map((m) => Number(m.value))
      .sort((a, b) => a - b);
    expect(all).toEqual([...Array(total).keys()]);
    expect(byMember[0]!.length).toBeGreaterThan(0);
    expect(byMember[1]!.length).toBeGreaterThan(0);
    // A partition belongs to one member at a time; with no rebalance during the run, to exactly one.
    const partitionsOf = (i: number) => new Set(byMember[i]!.map((m) => m.partition));
    for (const p of partitionsOf(0)) expect(partitionsOf(1).has(p)).toBe(false);
  });

  it('delivers again a message whose handler was still running when its consumer crashed', async () => {
    const topic = target.unique('crash');
    const groupId = target.unique('g');
    await bus.ensureTopics([topic]);
    await bus.publish(topic, [{ key: 'c1', value: 'in-flight' }]);
    // The embedded log belongs to one process at a time: the crashing member's, then this test's again.
    await bus.close();
    const member = await target.crashingMember(groupId, topic);
    expect(await member.handling).toBe('in-flight');
    await member.kill(); // no close(): nothing committed, the group not left

    bus = target.open();
    const next = collector('redelivered');
    const sub = await bus.subscribe({ groupId, topics: [topic], handler: next.handler });
    await next.waitFor(1, timeout());
    await sub.close();
    expect(next.received).toHaveLength(1);
    expect(next.received[0]).toMatchObject({ key: 'c1', value: 'in-flight', attempt: 1 });
  });

  it('commits nothing for a message whose handler failed: closed during its retry, the group gets it again', async () => {
    const topic = target.unique('uncommitted');
    const groupId = target.unique('g');
    await bus.ensureTopics([topic]);
    const failed: IncomingMessage[] = [];
    const sub = await bus.subscribe({
      groupId,
      topics: [topic],
      retry: { maxAttempts: 5, initialBackoffMs: 60_000, maxBackoffMs: 60_000 },
      handler: async (m) => {
        failed.push(m);
        throw new Error('downstream is down');
      },
    });
    await target.settle();
    await bus.publish(topic, [{ key: 'u1', value: 'first' }]);
    await waitUntil(() => failed.length === 1, timeout(), 'the first attempt');
    const closing = Date.now();
    await sub.close();
    expect(Date.now() - closing).toBeLessThan(10_000); // the minute-long backoff was cut short

    const again = collector('redelivered');
    const sub2 = await bus.subscribe({ groupId, topics: [topic], handler: again.handler });
    await again.waitFor(1, timeout());
    await sub2.close();
    expect(failed).toHaveLength(1);
    expect(again.received).toHaveLength(1);
    expect(again.received[0]).toMatchObject({ value: 'first', attempt: 1, offset: failed[0]!.offset });
  });

  it('dead-letters after maxAttempts and commits past the message: the group moves on for good', async () => {
    const topic = target.unique('dead-commit');
    const groupId = target.unique('g');
    await bus.ensureTopics([topic]);
    const attempts: number[] = [];
    const handled: string[] = [];
    const retry = { maxAttempts: 2, initialBackoffMs: 5, maxBackoffMs: 10 };
    const handler = async (m: IncomingMessage) => {
      if (m.value === 'bad') {
        attempts.push(m.attempt);
        throw new Error('never works');
      }
      handled.push(m.value);
    };
    const sub = await bus.subscribe({ groupId, topics: [topic], retry, handler });
    await target.settle();
    await bus.publish(topic, [
      { key: 'd', value: 'bad' },
      { key: 'd', value: 'next' },
    ]);
    await waitUntil(() => handled.includes('next'), timeout(), 'the message after the dead letter');
    await sub.close();
    expect(attempts).toEqual([1, 2]);

    const dead = collector('dead letters');
    const dlqSub = await bus.subscribe({
      groupId: target.unique('dlq-reader'),
      topics: [deadLetterTopic(topic)],
      handler: dead.handler,
    });
    await dead.waitFor(1, timeout());
    await dlqSub.close();
    expect(dead.received.map((m) => [m.value, m.headers[DLQ_HEADERS.attempts]])).toEqual([['bad', '2']]);

    // The group's next member starts after both: neither the dead letter nor 'next' comes back.
    const sub2 = await bus.subscribe({ groupId, topics: [topic], retry, handler });
    await target.settle();
    await bus.publish(topic, [{ key: 'd', value: 'sentinel' }]);
    await waitUntil(() => handled.includes('sentinel'), timeout(), 'the sentinel');
    await sub2.close();
    expect(attempts).toEqual([1, 2]);
    expect(handled).toEqual(['next', 'sentinel']);
  });

  it('makes topics created together usable at once', async () => {
    // On Kafka 4 a topic is briefly "not hosted" after its creation; ten pairs at once made that show.
    const topics = Array.from({ length: 10 }, (_, i) => target.unique(`burst-${i}`));
    await Promise.all(topics.map((topic) => bus.ensureTopics([topic, deadLetterTopic(topic)])));
    await Promise.all(topics.map((topic) => bus.publish(topic, [{ key: 'k', value: topic }])));
    const got = collector();
    const sub = await bus.subscribe({ groupId: target.unique('g'), topics, handler: got.handler });
    await got.waitFor(topics.length, timeout());
    await sub.close();
    expect(got.received.map((m) => m.value).sort()).toEqual([...topics].sort());
  });

  it('keeps headers such as traceparent and non-ASCII values intact', async () => {
    const topic = target.unique('headers');
    await bus.ensureTopics([topic]);
    const got = collector();
    const sub = await bus.subscribe({ groupId: target.unique('g'), topics: [topic], handler: got.handler });
    await target.settle();
    const headers = {
      traceparent: TRACEPARENT,
      tracestate: 'omni=1,vendor=abc',
      'x-omni-event-id': '0b9c5e7e-6f8a-4f0e-9a66-1f1bb2b0a0f1',
      'x-note': 'Björk — 東京 🎵',
    };
    await bus.publish(topic, [{ key: 'h1', value: 'Sigur Rós ✓', headers }]);
    await got.waitFor(1, timeout());
    await sub.close();
    expect(got.received[0]!.headers).toEqual(headers);
    expect(got.received[0]!.value).toBe('Sigur Rós ✓');
  });

  it('rejects invalid topic names and malformed messages before they reach the log', async () => {
    await expect(bus.publish('../escape', [{ key: 'k', value: 'v' }])).rejects.toThrow(/topic/);
    await expect(
      bus.publish(target.unique('bad-msg'), [{ key: 'k', value: 42 as unknown as string }]),
    ).rejects.toThrow(/invalid message/);
  });
}

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
