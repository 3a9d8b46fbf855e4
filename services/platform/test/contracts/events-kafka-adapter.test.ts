// The Kafka adapter's own logic against an in-memory kafkajs stand-in (no broker here): producer
// settings, commit-after-handler, retry then dead-letter, no commit when closed mid-retry, replay,
// health, and kafkajs → pino log mapping. The protocol side runs in events.contract.test.ts when
// KAFKA_BROKERS is set.
import { logLevel } from 'kafkajs';
import { createKafkaEventBus } from '../../src/adapters/events-kafka';
import { pinoLogCreator } from '../../src/adapters/events-kafka/kafka-logging';
import type { Logger } from '../../src/logging/logger';
import { DLQ_HEADERS, type EventBus, type IncomingMessage } from '../../src/ports/events';
import { FakeKafka } from '../support/events-fake-kafka';
import { waitUntil } from '../support/events-harness';

jest.mock('kafkajs', () => ({
  ...jest.requireActual('kafkajs'),
  Kafka: jest.requireActual('../support/events-fake-kafka').FakeKafka,
}));

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
let bus: EventBus;
let kafka: FakeKafka;

beforeEach(() => {
  FakeKafka.instances = [];
  bus = createKafkaEventBus({ brokers: ['kafka-0:9092'], clientId: 'omni-test' });
  kafka = FakeKafka.instances[0]!;
});
afterEach(async () => {
  await bus.close();
});

describe('Kafka adapter producer', () => {
  it('uses an idempotent producer with acks=all and the Java-compatible key partitioner', async () => {
    await bus.publish('release.created', [
      { key: 'rel-1', value: '{"a":1}', headers: { traceparent: TRACEPARENT } },
    ]);
    expect(kafka.producerConfigs[0]).toMatchObject({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
    });
    expect((kafka.producerConfigs[0] as { createPartitioner: unknown }).createPartitioner).toBe(
      jest.requireActual('kafkajs').Partitioners.DefaultPartitioner,
    );
    expect(kafka.createdTopics).toEqual([{ topic: 'release.created', numPartitions: 3 }]);
    expect(kafka.sent).toEqual([
      {
        topic: 'release.created',
        acks: -1,
        messages: [{ key: 'rel-1', value: '{"a":1}', headers: { traceparent: TRACEPARENT } }],
      },
    ]);
  });

  it('creates each topic once, with the requested partition count', async () => {
    await bus.ensureTopics(['a', 'b'], 6);
    await bus.publish('a', [{ key: 'k', value: 'v' }]);
    expect(kafka.createdTopics).toEqual([
      { topic: 'a', numPartitions: 6 },
      { topic: 'b', numPartitions: 6 },
    ]);
  });

  it('waits until a topic it just created is served (Kafka 4 answers "does not host" for a moment)', async () => {
    kafka.metadataNotServedYet = 3;
    await bus.publish('fresh', [{ key: 'k', value: 'v' }]);
    expect(kafka.metadataRequests).toBe(4);
    expect(kafka.sent.map((s) => s.topic)).toEqual(['fresh']);
  });

  it('rejects bad configuration and bad input up front', async () => {
    expect(() => createKafkaEventBus({ brokers: [], clientId: 'x' })).toThrow();
    expect(() => createKafkaEventBus({ brokers: ['no-port'], clientId: 'x' })).toThrow();
    await expect(bus.publish('bad topic', [{ key: 'k', value: 'v' }])).rejects.toThrow(/topic/);
    expect(kafka.sent).toEqual([]);
  });

  it('passes SASL and TLS settings to the client', () => {
    createKafkaEventBus({
      brokers: ['kafka:9093'],
      clientId: 'omni',
      ssl: true,
      sasl: { mechanism: 'scram-sha-512', username: 'omni', password: 's3cret' },
    });
    expect(FakeKafka.instances[1]!.config).toMatchObject({
      ssl: true,
      sasl: { mechanism: 'scram-sha-512', username: 'omni', password: 's3cret' },
    });
  });
});

describe('Kafka adapter consumer', () => {
  it('commits the next offset only after the handler resolves', async () => {
    const handled: IncomingMessage[] = [];
    let finish!: () => void;
    await bus.subscribe({
      groupId: 'delivery',
      topics: ['release.created'],
      handler: async (m) => {
        handled.push(m);
        await new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
    });
    const consumer = kafka.consumers[0]!;
    expect(consumer.config.groupId).toBe('delivery');
    expect(consumer.subscribed).toEqual({ topics: ['release.created'], fromBeginning: true });
    expect(consumer.runConfig?.autoCommit).toBe(false);
    expect(kafka.createdTopics.map((t) => t.topic)).toEqual(['release.created', 'release.created.dlq']);

    const delivery = consumer.deliver('release.created', 2, {
      offset: '41',
      key: 'rel-9',
      value: 'payload',
      headers: { traceparent: TRACEPARENT },
      timestamp: '1700000000000',
    });
    await waitUntil(() => handled.length === 1, 1000, 'the handler');
    expect(consumer.commits).toEqual([]); // not before the handler is done
    finish();
    await delivery;
    expect(consumer.commits).toEqual([{ topic: 'release.created', partition: 2, offset: '42' }]);
    expect(handled[0]).toEqual({
      topic: 'release.created',
      partition: 2,
      offset: '41',
      key: 'rel-9',
      value: 'payload',
      headers: { traceparent: TRACEPARENT },
      timestamp: 1700000000000,
      attempt: 1,
    });
  });

  it('retries off the fetch loop with its partition paused, then dead-letters with headers and commits', async () => {
    const attempts: number[] = [];
    await bus.subscribe({
      groupId: 'g',
      topics: ['t'],
      retry: { maxAttempts: 3, initialBackoffMs: 50, maxBackoffMs: 100 },
      handler: async (m) => {
        attempts.push(m.attempt);
        throw new Error('boom');
      },
    });
    const consumer = kafka.consumers[0]!;
    await consumer.deliver('t', 1, {
      offset: '9007199254740993',
      key: 'k',
      value: 'v',
      headers: { traceparent: TRACEPARENT },
    });
    // kafkajs fetches again only when eachMessage returns: it returned after the first failure, with
    // the partition paused so the key's later messages wait.
    expect(attempts).toEqual([1]);
    expect([...consumer.paused]).toEqual(['t|1']);
    await waitUntil(() => consumer.commits.length > 0, 2000, 'the commit after the dead letter');
    expect(attempts).toEqual([1, 2, 3]);
    expect(consumer.paused.size).toBe(0);
    const dead = kafka.sent.find((s) => s.topic === 't.dlq');
    expect(dead?.acks).toBe(-1);
    expect(dead?.messages[0]).toEqual({
      key: 'k',
      value: 'v',
      headers: {
        traceparent: TRACEPARENT,
        [DLQ_HEADERS.originalTopic]: 't',
        [DLQ_HEADERS.originalPartition]: '1',
        [DLQ_HEADERS.originalOffset]: '9007199254740993',
        [DLQ_HEADERS.error]: 'Error: boom',
        [DLQ_HEADERS.attempts]: '3',
      },
    });
    // Offsets beyond 2^53 are committed exactly (BigInt arithmetic).
    expect(consumer.commits).toEqual([{ topic: 't', partition: 1, offset: '9007199254740994' }]);
  });

  it('commits nothing for a message whose retry is cut short by close', async () => {
    const attempts: number[] = [];
    const sub = await bus.subscribe({
      groupId: 'g',
      topics: ['t'],
      retry: { maxAttempts: 5, initialBackoffMs: 60_000, maxBackoffMs: 60_000 },
      handler: async (m) => {
        attempts.push(m.attempt);
        throw new Error('down');
      },
    });
    const consumer = kafka.consumers[0]!;
    const delivery = consumer.deliver('t', 0, { offset: '5', key: 'k', value: 'v' });
    await waitUntil(() => attempts.length === 1, 1000, 'the first attempt');
    const started = Date.now();
    await sub.close();
    await delivery;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(consumer.disconnected).toBe(true);
    expect(consumer.commits).toEqual([]);
    expect(kafka.sent).toEqual([]);
    // Anything the runner still hands over after close is neither handled nor committed.
    await consumer.deliver('t', 0, { offset: '6', key: 'k', value: 'v' });
    expect(attempts).toEqual([1]);
    expect(consumer.commits).toEqual([]);
  });

  it('commits nothing for a retried message whose partition moved to another member meanwhile', async () => {
    let failing = true;
    const attempts: number[] = [];
    await bus.subscribe({
      groupId: 'g',
      topics: ['t'],
      retry: { maxAttempts: 3, initialBackoffMs: 100, maxBackoffMs: 100 },
      handler: async (m) => {
        attempts.push(m.attempt);
        if (failing) throw new Error('not yet');
      },
    });
    const consumer = kafka.consumers[0]!;
    await consumer.deliver('t', 2, { offset: '7', key: 'k', value: 'v' });
    consumer.assign({ t: [0, 1] });
    failing = false;
    await waitUntil(() => attempts.length === 2 && consumer.paused.size === 0, 2000, 'the second attempt');
    expect(consumer.commits).toEqual([]);
  });

  it('commits a message handled on its first attempt in the fetch loop, pausing nothing', async () => {
    await bus.subscribe({ groupId: 'g', topics: ['t'], handler: async () => undefined });
    const consumer = kafka.consumers[0]!;
    await consumer.deliver('t', 0, { offset: '3', key: 'k', value: 'v' });
    expect(consumer.commits).toEqual([{ topic: 't', partition: 0, offset: '4' }]);
    expect(consumer.paused.size).toBe(0);
  });

  it('fails subscribe with the reason when the consumer crashes for good before joining', async () => {
    const { FakeConsumer } = jest.requireActual('../support/events-fake-kafka');
    const run = jest.spyOn(FakeConsumer.prototype, 'run').mockImplementation(async function (this: {
      listeners: Map<string, (event: unknown) => void>;
    }) {
      this.listeners.get('consumer.crash')?.({
        payload: { error: new Error('group authorization failed'), restart: false },
      });
    });
    try {
      await expect(
        bus.subscribe({ groupId: 'g', topics: ['t'], handler: async () => undefined }),
      ).rejects.toThrow('group authorization failed');
      expect(kafka.consumers[0]!.disconnected).toBe(true);
      expect(await bus.healthy()).toBe(false);
    } finally {
      run.mockRestore();
    }
  });

  it('closes consumers before the producer', async () => {
    await bus.subscribe({ groupId: 'g', topics: ['t'], handler: async () => undefined });
    await bus.close();
    expect(kafka.consumers[0]!.disconnected).toBe(true);
    expect(kafka.producerDisconnected).toBe(true);
    await expect(bus.publish('t', [{ key: 'k', value: 'v' }])).rejects.toThrow(/closed/);
  });
});

describe('Kafka adapter operations', () => {
  it('replays dead letters up to the high watermark, stripping DLQ headers, and commits progress', async () => {
    kafka.topics.add('t.dlq');
    kafka.topicOffsets = [
      { partition: 0, offset: '2', high: '2', low: '0' },
      { partition: 1, offset: '0', high: '0', low: '0' },
    ];
    kafka.groupOffsets = [{ topic: 't.dlq', partitions: [{ partition: 0, offset: '-1' }] }];
    const replay = bus.replayDeadLetters('t');
    await waitUntil(() => kafka.consumers[0]?.runConfig !== undefined, 1000, 'the replay consumer');
    const consumer = kafka.consumers[0]!;
    expect(consumer.config.groupId).toBe('omni.dlq-replay.t');
    const dlqHeaders = {
      [DLQ_HEADERS.originalTopic]: 't',
      [DLQ_HEADERS.attempts]: '5',
      traceparent: TRACEPARENT,
    };
    await consumer.deliver('t.dlq', 0, { offset: '0', key: 'a', value: 'one', headers: dlqHeaders });
    await consumer.deliver('t.dlq', 0, { offset: '1', key: 'b', value: 'two', headers: dlqHeaders });
    expect(await replay).toBe(2);
    expect(kafka.sent.map((s) => [s.topic, s.messages[0]])).toEqual([
      ['t', { key: 'a', value: 'one', headers: { traceparent: TRACEPARENT } }],
      ['t', { key: 'b', value: 'two', headers: { traceparent: TRACEPARENT } }],
    ]);
    expect(consumer.commits).toEqual([
      { topic: 't.dlq', partition: 0, offset: '1' },
      { topic: 't.dlq', partition: 0, offset: '2' },
    ]);
    expect(consumer.disconnected).toBe(true);
  });

  it('replays nothing (and starts no consumer) when everything was replayed already', async () => {
    kafka.topics.add('t.dlq');
    kafka.topicOffsets = [{ partition: 0, offset: '2', high: '2', low: '0' }];
    kafka.groupOffsets = [{ topic: 't.dlq', partitions: [{ partition: 0, offset: '2' }] }];
    expect(await bus.replayDeadLetters('t')).toBe(0);
    expect(await bus.replayDeadLetters('no-dlq-yet')).toBe(0);
    expect(kafka.consumers).toEqual([]);
  });

  it('reports health from the cluster', async () => {
    expect(await bus.healthy()).toBe(true);
    kafka.clusterUp = false;
    expect(await bus.healthy()).toBe(false);
  });

  it('maps kafkajs log levels onto the pino logger', () => {
    const calls: Array<[string, unknown, string]> = [];
    const record = (level: string) => (fields: unknown, message: string) =>
      calls.push([level, fields, message]);
    const fakeLogger = {
      error: record('error'),
      warn: record('warn'),
      info: record('info'),
      debug: record('debug'),
    } as unknown as Logger;
    const log = pinoLogCreator(fakeLogger)(logLevel.DEBUG);
    const entry = (level: logLevel, message: string) => ({
      namespace: 'Consumer',
      level,
      label: '',
      log: { timestamp: 'now', message, groupId: 'g' },
    });
    log(entry(logLevel.ERROR, 'crashed'));
    log(entry(logLevel.WARN, 'slow'));
    log(entry(logLevel.INFO, 'joined'));
    log(entry(logLevel.DEBUG, 'fetch'));
    expect(calls).toEqual([
      ['error', { kafkajs: 'Consumer', groupId: 'g' }, 'crashed'],
      ['warn', { kafkajs: 'Consumer', groupId: 'g' }, 'slow'],
      ['info', { kafkajs: 'Consumer', groupId: 'g' }, 'joined'],
      ['debug', { kafkajs: 'Consumer', groupId: 'g' }, 'fetch'],
    ]);
  });
});
