// The embedded EventBus: Kafka's semantics in one process, persisted under <dataDir>/events.
//   topics/<topic>/topic.json, topics/<topic>/<partition>.log   append-only JSON-lines logs
//   groups/<base64url(groupId)>.offsets                          committed offsets per group (commit log)
import path from 'node:path';
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
  fromDeadLetter,
  resolveRetryPolicy,
} from '../events-shared';
import { ConsumerGroup, type GroupMember } from './consumer-group';
import { acquireDataDirLock } from './data-dir-lock';
import { GroupOffsets } from './group-offsets';
import { partitionForKey } from './partitioner';
import { TopicStore } from './topic-store';

export interface EmbeddedEventBusOptions {
  /** The platform data directory; the log lives in `<dataDir>/events`. */
  dataDir: string;
  /** Partitions for topics created without an explicit count (default 3). */
  partitions?: number;
  logger?: Logger;
  /** fdatasync before acknowledging a publish or commit (default true). Off only for throwaway data. */
  fsync?: boolean;
  /** Latest records per partition kept in memory; older ones are read from disk (default 4096). */
  recentRecords?: number;
}

/** Offsets of the operator's DLQ replays: which dead letters were already put back. */
const REPLAY_GROUP = '__omni.dlq-replay';

export class EmbeddedEventBus implements EventBus {
  readonly kind = 'embedded';
  private readonly root: string;
  private readonly logger: Logger;
  private readonly fsync: boolean;
  private readonly topics: TopicStore;
  private readonly groups = new Map<string, ConsumerGroup>();
  private readonly groupOffsets = new Map<string, GroupOffsets>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly releaseLock: () => void;
  private replayChain: Promise<unknown> = Promise.resolve();
  private nextMemberId = 1;
  private closing = false;
  private closed: Promise<void> | undefined;

  constructor(options: EmbeddedEventBusOptions) {
    this.root = path.join(options.dataDir, 'events');
    this.logger = options.logger ?? createLogger('events-embedded');
    this.fsync = options.fsync ?? true;
    const defaultPartitions = assertPartitionCount(options.partitions ?? 3);
    this.topics = new TopicStore(this.root, {
      fsync: this.fsync,
      logger: this.logger,
      defaultPartitions,
      recentRecords: options.recentRecords,
    });
    this.releaseLock = acquireDataDirLock(this.root);
  }

  async publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    this.assertOpen();
    await this.append(topic, messages);
  }

  /** Appends grouped by partition (order kept within each); resolves when every partition has synced. */
  private async append(topicName: string, messages: OutgoingMessage[]): Promise<void> {
    assertOutgoingMessages(messages);
    if (messages.length === 0) return;
    const topic = this.topics.ensure(assertTopicName(topicName));
    const byPartition = new Map<number, OutgoingMessage[]>();
    for (const message of messages) {
      const partition = partitionForKey(message.key, topic.partitions.length);
      const list = byPartition.get(partition) ?? [];
      list.push(message);
      byPartition.set(partition, list);
    }
    const now = Date.now();
    await Promise.all([...byPartition].map(([p, list]) => topic.partitions[p]!.append(list, now)));
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    this.assertOpen();
    const groupId = assertGroupId(options.groupId);
    if (options.topics.length === 0) throw new TypeError('subscribe needs at least one topic');
    if (typeof options.handler !== 'function') throw new TypeError('subscribe needs a handler');
    const policy = resolveRetryPolicy(options.retry);
    for (const topic of options.topics) this.topics.ensure(assertTopicName(topic));

    const member: GroupMember = {
      id: this.nextMemberId++,
      topics: new Set(options.topics),
      handler: options.handler,
      policy,
      fromBeginning: options.fromBeginning ?? true,
      abort: new AbortController(),
      inFlight: new Set(),
    };
    const group = this.group(groupId);
    group.join(member);
    this.logger.info({ groupId, topics: options.topics, member: member.id }, 'subscribed');

    let closing: Promise<void> | undefined;
    const subscription: Subscription = {
      close: () => {
        closing ??= (async () => {
          group.leave(member);
          member.abort.abort();
          // Handlers already running finish and commit; nothing new starts for this member.
          await Promise.allSettled([...member.inFlight]);
          this.subscriptions.delete(subscription);
          this.logger.info({ groupId, member: member.id }, 'subscription closed');
        })();
        return closing;
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async ensureTopics(topics: string[], partitions?: number): Promise<void> {
    this.assertOpen();
    for (const topic of topics) this.topics.ensure(assertTopicName(topic), partitions);
  }

  async replayDeadLetters(topic: string): Promise<number> {
    this.assertOpen();
    // One replay at a time, so two operators clicking "replay" cannot put the same letters back twice.
    const run = this.replayChain.then(() => this.replay(assertTopicName(topic)));
    this.replayChain = run.catch(() => undefined);
    return run;
  }

  private async replay(topic: string): Promise<number> {
    const dlq = this.topics.find(deadLetterTopic(topic));
    if (!dlq) return 0;
    const progress = this.offsetsFor(REPLAY_GROUP);
    const messages: OutgoingMessage[] = [];
    const upTo: Array<[number, number]> = [];
    dlq.partitions.forEach((log, partition) => {
      const end = log.end;
      for (let offset = progress.get(dlq.name, partition) ?? 0; offset < end; offset++) {
        messages.push(fromDeadLetter(log.read(offset)!));
      }
      upTo.push([partition, end]);
    });
    if (messages.length === 0) return 0;
    // Publish first, then record progress: a crash in between replays again (at-least-once), never loses.
    await this.append(topic, messages);
    await Promise.all(upTo.map(([partition, end]) => progress.commit(dlq.name, partition, end)));
    this.logger.info({ topic, replayed: messages.length }, 'dead letters replayed');
    return messages.length;
  }

  async ready(): Promise<void> {
    this.assertOpen();
  }

  async healthy(): Promise<boolean> {
    return !this.closing && this.topics.healthy;
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      this.closing = true;
      await Promise.allSettled([...this.subscriptions].map((s) => s.close()));
      await Promise.allSettled([...this.groups.values()].map((g) => g.stop()));
      await Promise.allSettled([...this.groupOffsets.values()].map((o) => o.close()));
      await this.topics.close();
      this.releaseLock();
      this.logger.info({ dir: this.root }, 'event log closed');
    })();
    return this.closed;
  }

  private group(groupId: string): ConsumerGroup {
    let group = this.groups.get(groupId);
    if (!group) {
      group = new ConsumerGroup(groupId, this.offsetsFor(groupId), {
        topic: (name) => this.topics.ensure(name),
        publishDeadLetter: (source, letter) =>
          this.append(deadLetterTopic(source), [letter]).then(() => undefined),
        logger: this.logger.child({ groupId }),
      });
      this.groups.set(groupId, group);
    }
    return group;
  }

  private offsetsFor(groupId: string): GroupOffsets {
    let offsets = this.groupOffsets.get(groupId);
    if (!offsets) {
      offsets = GroupOffsets.load(this.root, groupId, { fsync: this.fsync, logger: this.logger });
      this.groupOffsets.set(groupId, offsets);
    }
    return offsets;
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('event bus is closed');
  }
}
