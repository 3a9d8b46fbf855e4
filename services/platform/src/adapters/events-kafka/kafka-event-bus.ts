// The production EventBus on Kafka (kafkajs). Guarantees, in the port's terms:
// - publish resolves when every in-sync replica has the records (acks -1) from an idempotent producer,
//   so broker retries cannot duplicate or reorder a key's events;
// - keys pick partitions with the Java-compatible murmur2 partitioner (same as other Kafka clients);
// - each subscription is its own consumer in its group, auto-commit off, committing the next offset only
//   after the handler succeeded or the message went to the dead-letter topic (at-least-once);
// - retry / backoff / DLQ is the shared loop the embedded log uses too; a message that failed once is
//   retried with its partition paused, off kafkajs' fetch loop, so the other partitions keep flowing;
// - subscribe() resolves once the group has given the new member its partitions.
import { type Admin, Kafka, type Message, Partitioners, type Producer, type SASLOptions } from 'kafkajs';
import { z } from 'zod';
import { createLogger, type Logger } from '../../logging/logger';
import {
  deadLetterTopic,
  type EventBus,
  type OutgoingMessage,
  type SubscribeOptions,
  type Subscription,
} from '../../ports/events';
import {
  assertGroupId,
  assertOutgoingMessages,
  assertPartitionCount,
  assertTopicName,
  type DeliveryOutcome,
  deliverWithRetry,
  describeError,
  fromDeadLetter,
  resolveRetryPolicy,
} from '../events-shared';
import { kafkaLogLevelFor, pinoLogCreator } from './kafka-logging';
import { nextOffset, toIncoming } from './kafka-messages';
import { waitForTopicLeaders } from './topic-readiness';

const optionsSchema = z.object({
  brokers: z.array(z.string().regex(/^[^\s:]+:\d{1,5}$/, 'brokers are host:port')).min(1),
  clientId: z.string().min(1),
  ssl: z.boolean().optional(),
  sasl: z
    .object({
      mechanism: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']),
      username: z.string().min(1),
      password: z.string().min(1),
    })
    .optional(),
  sessionTimeoutMs: z.number().int().min(6000).max(300_000).optional(),
});

export interface KafkaEventBusOptions {
  brokers: string[];
  clientId: string;
  logger?: Logger;
  ssl?: boolean;
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
  /**
   * How long the group waits for a member that stopped heartbeating (a crashed process) before giving its
   * partitions to the others (default 30 s; the broker's minimum is 6 s). A handler running longer than
   * this without returning costs the member its partitions, so keep it well above the slowest handler.
   */
  sessionTimeoutMs?: number;
}

const DEFAULT_PARTITIONS = 3;
/**
 * How many partitions' batches of one fetch are handled at once. kafkajs fetches again only when every
 * batch of the previous fetch is done, so this alone does not keep partitions flowing while one retries:
 * a retrying partition is paused and retried off the fetch loop (see subscribe).
 */
const PARTITIONS_CONSUMED_CONCURRENTLY = 8;
const TOPIC_READY_TIMEOUT_MS = 30_000;
const DEFAULT_SESSION_TIMEOUT_MS = 30_000;
/**
 * kafkajs heartbeats, and so learns of a rebalance, only between fetches, and close() waits for the fetch
 * in flight: its 5 s default long poll made every join of a second member and every close take seconds.
 * The Java client's default is 500 ms.
 */
const FETCH_MAX_WAIT_MS = 500;
const HEARTBEAT_INTERVAL_MS = 1000;
/** subscribe() waits this long for the group to assign partitions, then returns and lets kafkajs go on. */
const JOIN_WAIT_MS = 30_000;
/** An operator replay that has not reached the end of the DLQ by then reports an error (progress is kept). */
const REPLAY_TIMEOUT_MS = 120_000;
const HEALTH_TIMEOUT_MS = 3000;

export class KafkaEventBus implements EventBus {
  readonly kind = 'kafka';
  private readonly logger: Logger;
  private readonly kafka: Kafka;
  private readonly producer: Producer;
  private readonly admin: Admin;
  private readonly knownTopics = new Set<string>();
  private readonly sessionTimeoutMs: number;
  private readonly subscriptions = new Set<Subscription>();
  private connecting: Promise<void> | undefined;
  private replayChain: Promise<unknown> = Promise.resolve();
  private closing = false;
  private closed: Promise<void> | undefined;
  /** A consumer that kafkajs gave up restarting: the service can no longer consume, so it is unhealthy. */
  private fatalConsumerError: Error | undefined;

  constructor(options: KafkaEventBusOptions) {
    const parsed = optionsSchema.parse(options);
    this.logger = options.logger ?? createLogger('events-kafka');
    this.kafka = new Kafka({
      clientId: parsed.clientId,
      brokers: parsed.brokers,
      ssl: parsed.ssl ?? false,
      ...(parsed.sasl ? { sasl: parsed.sasl as SASLOptions } : {}),
      logLevel: kafkaLogLevelFor(this.logger),
      logCreator: pinoLogCreator(this.logger),
    });
    this.producer = this.kafka.producer({
      idempotent: true,
      // kafkajs keeps a key's order across retries of an idempotent producer only with one request in flight.
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
      // Topics are created deliberately (ensureTopics, or on first use below) with our partition count,
      // not with whatever the broker's auto-create default happens to be.
      allowAutoTopicCreation: false,
    });
    this.admin = this.kafka.admin();
    this.sessionTimeoutMs = parsed.sessionTimeoutMs ?? DEFAULT_SESSION_TIMEOUT_MS;
  }

  private connect(): Promise<void> {
    this.connecting ??= Promise.all([this.producer.connect(), this.admin.connect()]).then(
      () => this.logger.info('connected to kafka'),
      (error: unknown) => {
        // Let the next call try again instead of caching the failure forever.
        this.connecting = undefined;
        throw error;
      },
    );
    return this.connecting;
  }

  async publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    this.assertOpen();
    assertTopicName(topic);
    assertOutgoingMessages(messages);
    await this.send(topic, messages);
  }

  /** Publishing without the open check: dead letters and replays may still be written while closing. */
  private async send(topic: string, messages: OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.connect();
    await this.ensureTopicsInternal([topic], DEFAULT_PARTITIONS);
    const wire: Message[] = messages.map((m) => ({
      key: m.key,
      value: m.value,
      headers: { ...(m.headers ?? {}) },
    }));
    await this.producer.send({ topic, acks: -1, messages: wire });
  }

  async ensureTopics(topics: string[], partitions?: number): Promise<void> {
    this.assertOpen();
    for (const topic of topics) assertTopicName(topic);
    await this.connect();
    await this.ensureTopicsInternal(topics, assertPartitionCount(partitions ?? DEFAULT_PARTITIONS));
  }

  private async ensureTopicsInternal(topics: string[], partitions: number): Promise<void> {
    const missing = [...new Set(topics)].filter((t) => !this.knownTopics.has(t));
    if (missing.length === 0) return;
    // createTopics leaves existing topics alone (and resolves false when all of them existed). Its own
    // wait for leaders gives up on Kafka 4's "does not host this topic-partition" right after creation,
    // and is skipped for topics another client created a moment ago: wait here instead, in both cases.
    await this.admin.createTopics({
      waitForLeaders: false,
      topics: missing.map((topic) => ({ topic, numPartitions: partitions })),
    });
    await waitForTopicLeaders(this.admin, missing, TOPIC_READY_TIMEOUT_MS);
    for (const topic of missing) this.knownTopics.add(topic);
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.assertOpen();
    const groupId = assertGroupId(options.groupId);
    if (options.topics.length === 0) throw new TypeError('subscribe needs at least one topic');
    for (const topic of options.topics) assertTopicName(topic);
    const policy = resolveRetryPolicy(options.retry);
    await this.connect();
    // The DLQ topics too, so the first dead letter does not wait on topic creation.
    await this.ensureTopicsInternal(
      [...options.topics, ...options.topics.map(deadLetterTopic)],
      DEFAULT_PARTITIONS,
    );

    const logger = this.logger.child({ groupId });
    const consumer = this.kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: this.sessionTimeoutMs,
      heartbeatInterval: Math.min(HEARTBEAT_INTERVAL_MS, Math.floor(this.sessionTimeoutMs / 3)),
      maxWaitTimeInMs: FETCH_MAX_WAIT_MS,
    });
    const abort = new AbortController();
    let closing = false;
    let joined!: () => void;
    let joinFailed!: (error: Error) => void;
    const firstJoin = new Promise<void>((resolve, reject) => {
      joined = resolve;
      joinFailed = reject;
    });
    firstJoin.catch(() => undefined);
    /** What the group gave this member at its last join: a retry that outlives a rebalance commits nothing. */
    let assigned = new Set<string>();
    /** Retries running off the fetch loop, each holding its partition paused. */
    const retrying = new Set<Promise<void>>();

    consumer.on(consumer.events.CRASH, (event) => {
      const { error, restart } = event.payload;
      logger.error({ err: describeError(error), restart }, 'kafka consumer crashed');
      if (!restart && !closing) this.fatalConsumerError = error;
      // A consumer kafkajs will not restart never joins: subscribe() fails with the reason.
      if (!restart) joinFailed(error);
    });
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      const assignment = event.payload.memberAssignment;
      assigned = new Set(
        Object.entries(assignment).flatMap(([topic, partitions]) => partitions.map((p) => `${topic}|${p}`)),
      );
      joined();
    });

    const commit = (topic: string, partition: number, offset: string) =>
      consumer.commitOffsets([{ topic, partition, offset: nextOffset(offset) }]);

    /**
     * The rest of a failed message's deliveries, while its partition stays paused (so the key's later
     * messages wait behind it) and the fetch loop serves the other partitions.
     */
    const finishOffLoop = async (
      outcome: Promise<DeliveryOutcome>,
      topic: string,
      partition: number,
      offset: string,
      resume: () => void,
    ) => {
      try {
        if ((await outcome) === 'aborted') return;
        if (!assigned.has(`${topic}|${partition}`)) {
          // Its new owner starts from the last commit and delivers the message again (at-least-once).
          logger.warn({ topic, partition, offset }, 'partition moved during a retry; not committing');
          return;
        }
        await commit(topic, partition, offset);
      } catch (error) {
        // Uncommitted: delivered again from the last committed offset after the next rebalance.
        logger.warn({ topic, partition, offset, err: describeError(error) }, 'retried message not committed');
      } finally {
        resume();
      }
    };

    await consumer.connect();
    try {
      await consumer.subscribe({ topics: options.topics, fromBeginning: options.fromBeginning ?? true });
      await consumer.run({
        autoCommit: false,
        partitionsConsumedConcurrently: PARTITIONS_CONSUMED_CONCURRENTLY,
        eachMessage: async ({ topic, partition, message, pause }) => {
          // Once closing, handle and commit nothing more: a message skipped here stays uncommitted and is
          // redelivered to whoever owns the partition next. (kafkajs' autoCommit is off, so its own local
          // "resolved" marker never reaches the broker.)
          if (closing) return;
          let firstFailure!: () => void;
          const failedOnce = new Promise<'retrying'>((resolve) => {
            firstFailure = () => resolve('retrying');
          });
          const outcome = deliverWithRetry({
            message: toIncoming(topic, partition, message),
            handler: async (incoming) => {
              try {
                await options.handler(incoming);
              } catch (error) {
                if (incoming.attempt === 1) firstFailure();
                throw error;
              }
            },
            policy,
            signal: abort.signal,
            publishDeadLetter: (letter) => this.send(deadLetterTopic(topic), [letter]),
            logger,
          });
          const first = await Promise.race([outcome, failedOnce]);
          if (first === 'retrying') {
            // kafkajs fetches again only once every batch of this fetch is handled, so waiting out the
            // backoff here would stall every partition. Paused, this partition's later messages stay
            // unread (kafkajs reads them again from here on resume) while the retry goes on.
            const resume = pause();
            const work = finishOffLoop(outcome, topic, partition, message.offset, resume);
            retrying.add(work);
            void work.finally(() => retrying.delete(work));
            return;
          }
          if (first === 'aborted') return;
          // A commit that fails (e.g. the group is rebalancing) throws: kafkajs rejoins and the message is
          // delivered again from the last committed offset.
          await commit(topic, partition, message.offset);
        },
      });
      // consumer.run() returns before the group has assigned anything; a caller that publishes next and
      // subscribed with fromBeginning false would otherwise miss its own message.
      const timer = setTimeout(() => {
        logger.warn({ waitedMs: JOIN_WAIT_MS }, 'no partitions assigned yet; consuming once the group has');
        joined();
      }, JOIN_WAIT_MS);
      await firstJoin;
      clearTimeout(timer);
    } catch (error) {
      await consumer.disconnect().catch(() => undefined);
      throw error;
    }
    logger.info({ topics: options.topics }, 'subscribed');

    let closingPromise: Promise<void> | undefined;
    const subscription: Subscription = {
      close: () => {
        closingPromise ??= (async () => {
          closing = true;
          abort.abort();
          // Retries end at their next backoff; one whose handler was running commits if it succeeded.
          await Promise.allSettled([...retrying]);
          // disconnect() stops fetching, waits for the eachMessage calls in flight (which commit), then
          // leaves the group so its partitions move to the other members at once.
          await consumer.disconnect();
          this.subscriptions.delete(subscription);
          logger.info('subscription closed');
        })();
        return closingPromise;
      },
    };
    this.subscriptions.add(subscription);
    if (this.closing) {
      // close() ran while this consumer was joining and could not see it: do not leave it running.
      await subscription.close();
      throw new Error('event bus is closed');
    }
    return subscription;
  }

  async replayDeadLetters(topic: string): Promise<number> {
    this.assertOpen();
    assertTopicName(topic);
    // One replay at a time per bus: two concurrent replays of one topic would share a group and race.
    const run = this.replayChain.then(() => this.replay(topic));
    this.replayChain = run.catch(() => undefined);
    return run;
  }

  /**
   * Replays what is in the DLQ now (up to each partition's high watermark when the replay starts).
   * Progress is the committed offset of a dedicated group per topic, so each dead letter is replayed
   * once; a crash between re-publishing and committing replays that one again (at-least-once).
   */
  private async replay(topic: string): Promise<number> {
    await this.connect();
    const dlq = deadLetterTopic(topic);
    if (!(await this.admin.listTopics()).includes(dlq)) return 0;
    const groupId = `omni.dlq-replay.${topic}`;
    const watermarks = await this.admin.fetchTopicOffsets(dlq);
    const [committed] = await this.admin.fetchOffsets({ groupId, topics: [dlq] });
    const committedBy = new Map((committed?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
    const endBy = new Map<number, bigint>();
    for (const w of watermarks) {
      const start = bigMax(committedBy.get(w.partition) ?? -1n, BigInt(w.low));
      if (start < BigInt(w.high)) endBy.set(w.partition, BigInt(w.high));
    }
    if (endBy.size === 0) return 0;

    const consumer = this.kafka.consumer({ groupId, allowAutoTopicCreation: false });
    let count = 0;
    const remaining = new Set(endBy.keys());
    let finish!: () => void;
    let fail!: (error: unknown) => void;
    const finished = new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [dlq], fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachMessage: async ({ partition, message }) => {
          const end = endBy.get(partition);
          // Letters that arrived after the replay began wait for the next replay.
          if (end === undefined || BigInt(message.offset) >= end) return;
          try {
            await this.send(topic, [fromDeadLetter(toIncoming(dlq, partition, message))]);
            count++;
            await consumer.commitOffsets([{ topic: dlq, partition, offset: nextOffset(message.offset) }]);
          } catch (error) {
            fail(error);
            throw error;
          }
          if (BigInt(message.offset) + 1n >= end) {
            remaining.delete(partition);
            if (remaining.size === 0) finish();
          }
        },
      });
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(`dead-letter replay of ${topic} timed out after ${count} messages; run it again`),
            ),
          REPLAY_TIMEOUT_MS,
        );
      });
      try {
        await Promise.race([finished, timeout]);
      } finally {
        clearTimeout(timer);
      }
    } finally {
      await consumer.disconnect().catch((error: unknown) => {
        this.logger.warn({ err: describeError(error) }, 'replay consumer did not disconnect cleanly');
      });
    }
    this.logger.info({ topic, replayed: count }, 'dead letters replayed');
    return count;
  }

  async ready(): Promise<void> {
    this.assertOpen();
    await this.connect();
  }

  async healthy(): Promise<boolean> {
    if (this.closing || this.fatalConsumerError) return false;
    try {
      await this.connect();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('kafka health check timed out')), HEALTH_TIMEOUT_MS);
      });
      try {
        await Promise.race([this.admin.describeCluster(), timeout]);
      } finally {
        clearTimeout(timer);
      }
      return true;
    } catch (error) {
      this.logger.warn({ err: describeError(error) }, 'kafka health check failed');
      return false;
    }
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      this.closing = true;
      // Consumers first: their in-flight handlers may still dead-letter through the producer.
      await Promise.allSettled([...this.subscriptions].map((s) => s.close()));
      await this.replayChain;
      const results = await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()]);
      for (const r of results) {
        if (r.status === 'rejected')
          this.logger.warn({ err: describeError(r.reason) }, 'kafka disconnect failed');
      }
      this.logger.info('kafka event bus closed');
    })();
    return this.closed;
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('event bus is closed');
  }
}

function bigMax(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
