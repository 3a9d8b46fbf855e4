// An in-memory stand-in for the parts of kafkajs the Kafka adapter uses, so the adapter's own logic
// (what it configures, when it commits, what it dead-letters) is tested without a broker. It is not a
// Kafka: the contract suite against a real broker (KAFKA_BROKERS) covers the protocol side.
import type { KafkaMessage } from 'kafkajs';

export interface FakeEachMessagePayload {
  topic: string;
  partition: number;
  message: KafkaMessage;
  heartbeat: () => Promise<void>;
  pause: () => () => void;
}

export class FakeConsumer {
  subscribed: { topics: string[]; fromBeginning?: boolean } | undefined;
  runConfig: { autoCommit?: boolean; eachMessage?: (p: FakeEachMessagePayload) => Promise<void> } | undefined;
  readonly commits: Array<{ topic: string; partition: number; offset: string }> = [];
  readonly heartbeats: number[] = [];
  /** "topic|partition" of the partitions the adapter paused and has not resumed. */
  readonly paused = new Set<string>();
  connected = false;
  disconnected = false;
  readonly events = { CRASH: 'consumer.crash', GROUP_JOIN: 'consumer.group_join' };
  readonly listeners = new Map<string, (event: unknown) => void>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(readonly config: { groupId: string }) {}

  async connect() {
    this.connected = true;
  }
  async subscribe(subscription: { topics: string[]; fromBeginning?: boolean }) {
    this.subscribed = subscription;
  }
  /** Like a first join: the member gets partitions 0–7 of every subscribed topic. */
  async run(config: FakeConsumer['runConfig']) {
    this.runConfig = config;
    const partitions = [...Array(8).keys()];
    this.assign(Object.fromEntries((this.subscribed?.topics ?? []).map((t) => [t, partitions])));
  }
  /** A rebalance's outcome, as kafkajs reports it in GROUP_JOIN. */
  assign(memberAssignment: Record<string, number[]>) {
    this.listeners.get(this.events.GROUP_JOIN)?.({ payload: { memberAssignment } });
  }
  async commitOffsets(offsets: Array<{ topic: string; partition: number; offset: string }>) {
    this.commits.push(...offsets);
  }
  on(event: string, listener: (event: unknown) => void) {
    this.listeners.set(event, listener);
    return () => this.listeners.delete(event);
  }
  /** Like kafkajs: stop waits for eachMessage calls in flight before leaving the group. */
  async disconnect() {
    await Promise.allSettled([...this.inFlight]);
    this.disconnected = true;
  }

  /** Feeds one record to the adapter's eachMessage, as the kafkajs runner would. */
  deliver(
    topic: string,
    partition: number,
    record: {
      offset: string;
      key?: string;
      value: string;
      headers?: Record<string, string>;
      timestamp?: string;
    },
  ): Promise<void> {
    const eachMessage = this.runConfig?.eachMessage;
    if (!eachMessage) throw new Error('consumer.run was not called');
    const message = {
      offset: record.offset,
      key: record.key === undefined ? null : Buffer.from(record.key),
      value: Buffer.from(record.value),
      headers: Object.fromEntries(Object.entries(record.headers ?? {}).map(([k, v]) => [k, Buffer.from(v)])),
      timestamp: record.timestamp ?? String(Date.now()),
      attributes: 0,
    } as KafkaMessage;
    const run = eachMessage({
      topic,
      partition,
      message,
      heartbeat: async () => {
        this.heartbeats.push(Date.now());
      },
      pause: () => {
        const key = `${topic}|${partition}`;
        this.paused.add(key);
        return () => this.paused.delete(key);
      },
    });
    this.inFlight.add(run);
    return run.finally(() => this.inFlight.delete(run));
  }
}

export class FakeKafka {
  static instances: FakeKafka[] = [];
  readonly producerConfigs: unknown[] = [];
  readonly sent: Array<{
    topic: string;
    acks?: number;
    messages: Array<{ key: string; value: string; headers: Record<string, string> }>;
  }> = [];
  readonly createdTopics: Array<{ topic: string; numPartitions?: number }> = [];
  readonly consumers: FakeConsumer[] = [];
  topics = new Set<string>();
  topicOffsets: Array<{ partition: number; offset: string; high: string; low: string }> = [];
  groupOffsets: Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }> = [];
  clusterUp = true;
  /** How many more metadata requests fail as Kafka 4 answers them right after a topic's creation. */
  metadataNotServedYet = 0;
  metadataRequests = 0;
  producerDisconnected = false;

  constructor(readonly config: Record<string, unknown>) {
    FakeKafka.instances.push(this);
  }

  producer(config: unknown) {
    this.producerConfigs.push(config);
    return {
      connect: async () => undefined,
      disconnect: async () => {
        this.producerDisconnected = true;
      },
      send: async (record: FakeKafka['sent'][number]) => {
        this.sent.push(record);
        this.topics.add(record.topic);
        return [];
      },
    };
  }

  admin() {
    return {
      connect: async () => undefined,
      disconnect: async () => undefined,
      createTopics: async ({ topics }: { topics: Array<{ topic: string; numPartitions?: number }> }) => {
        this.createdTopics.push(...topics);
        for (const t of topics) this.topics.add(t.topic);
        return true;
      },
      listTopics: async () => [...this.topics],
      fetchTopicMetadata: async ({ topics }: { topics: string[] }) => {
        this.metadataRequests++;
        if (this.metadataNotServedYet > 0) {
          this.metadataNotServedYet--;
          throw Object.assign(new Error('This server does not host this topic-partition'), {
            type: 'UNKNOWN_TOPIC_OR_PARTITION',
          });
        }
        return {
          topics: topics.map((name) => ({
            name,
            partitions: [0, 1, 2].map((partitionId) => ({ partitionId, leader: 1, partitionErrorCode: 0 })),
          })),
        };
      },
      fetchTopicOffsets: async () => this.topicOffsets,
      fetchOffsets: async () => this.groupOffsets,
      describeCluster: async () => {
        if (!this.clusterUp) throw new Error('connection refused');
        return { brokers: [], controller: 1, clusterId: 'fake' };
      },
    };
  }

  consumer(config: { groupId: string }) {
    const consumer = new FakeConsumer(config);
    this.consumers.push(consumer);
    return consumer;
  }
}
