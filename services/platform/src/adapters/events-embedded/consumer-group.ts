// Consumer groups in one process. Each group owns one worker per (topic, partition) it reads; a worker
// handles its partition's records strictly one at a time, in offset order, and commits after each.
// Members (subscriptions with the same groupId) are assigned partitions round-robin; when a member
// joins or leaves, ownership moves at the next record boundary, so a partition is never handled by
// two members at once and the record in flight finishes with the member that started it.
import type { Logger } from '../../logging/logger';
import type { IncomingMessage, OutgoingMessage, RetryPolicy } from '../../ports/events';
import { deliverWithRetry, describeError } from '../events-shared';
import type { GroupOffsets } from './group-offsets';
import type { LogRecord, PartitionLog } from './partition-log';
import { Signal } from './signal';
import type { Topic } from './topic-store';

export interface GroupMember {
  readonly id: number;
  readonly topics: ReadonlySet<string>;
  readonly handler: (message: IncomingMessage) => Promise<void>;
  readonly policy: RetryPolicy;
  readonly fromBeginning: boolean;
  /** Aborted when the member leaves: cuts retry backoffs short. */
  readonly abort: AbortController;
  /** Deliveries (handler + commit) currently running for this member. */
  readonly inFlight: Set<Promise<void>>;
}

export interface GroupDeps {
  topic(name: string): Topic;
  publishDeadLetter(sourceTopic: string, deadLetter: OutgoingMessage): Promise<void>;
  logger: Logger;
}

export class ConsumerGroup {
  private members: GroupMember[] = [];
  private readonly workers = new Map<string, PartitionWorker>();

  constructor(
    readonly groupId: string,
    private readonly offsets: GroupOffsets,
    private readonly deps: GroupDeps,
  ) {}

  join(member: GroupMember): void {
    this.members.push(member);
    this.rebalance();
  }

  leave(member: GroupMember): void {
    this.members = this.members.filter((m) => m !== member);
    this.rebalance();
  }

  /** Round-robin over every (topic, partition), each given to a member subscribed to that topic. */
  private rebalance(): void {
    const topics = [...new Set(this.members.flatMap((m) => [...m.topics]))].sort();
    const wanted = new Set<string>();
    let turn = 0;
    for (const topicName of topics) {
      const topic = this.deps.topic(topicName);
      const candidates = this.members.filter((m) => m.topics.has(topicName));
      for (let partition = 0; partition < topic.partitions.length; partition++) {
        const key = `${topicName}\u0000${partition}`;
        wanted.add(key);
        let worker = this.workers.get(key);
        if (!worker) {
          worker = new PartitionWorker(
            this.groupId,
            topicName,
            partition,
            topic.partitions[partition]!,
            this.offsets,
            this.deps,
          );
          this.workers.set(key, worker);
        }
        worker.assign(candidates[turn++ % candidates.length]);
      }
    }
    for (const [key, worker] of this.workers) if (!wanted.has(key)) worker.assign(undefined);
    this.deps.logger.debug(
      { groupId: this.groupId, members: this.members.map((m) => m.id), partitions: wanted.size },
      'consumer group rebalanced',
    );
  }

  /** For tests and diagnostics: which member owns which partition. */
  assignments(): Array<{ topic: string; partition: number; member: number | undefined }> {
    return [...this.workers.values()].map((w) => ({
      topic: w.topic,
      partition: w.partition,
      member: w.owner?.id,
    }));
  }

  /** Stops every worker (after its in-flight record) and makes the committed offsets durable. */
  async stop(): Promise<void> {
    for (const worker of this.workers.values()) worker.stop();
    await Promise.all([...this.workers.values()].map((w) => w.done));
    await this.offsets.flush();
  }
}

class PartitionWorker {
  owner: GroupMember | undefined;
  readonly done: Promise<void>;
  private position: number | undefined;
  private stopped = false;
  private readonly wake = new Signal();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly groupId: string,
    readonly topic: string,
    readonly partition: number,
    private readonly log: PartitionLog,
    private readonly offsets: GroupOffsets,
    private readonly deps: GroupDeps,
  ) {
    // New durable records wake the worker at once: no polling, publish-to-handler latency is a tick.
    this.unsubscribe = log.onAppend(() => this.wake.notify());
    this.done = this.loop();
  }

  assign(member: GroupMember | undefined): void {
    if (this.owner === member) return;
    this.owner = member;
    this.wake.notify();
  }

  stop(): void {
    this.stopped = true;
    this.wake.notify();
  }

  private async loop(): Promise<void> {
    // Let the constructor finish (and the group finish assigning) before the first read.
    await Promise.resolve();
    try {
      while (!this.stopped) {
        const owner = this.owner;
        if (!owner) {
          await this.wake.wait();
          continue;
        }
        const position = this.startPosition(owner);
        let record: LogRecord | undefined;
        try {
          record = this.log.read(position);
        } catch (error) {
          // A damaged file: delivering past the record would lose it, retrying cannot mend it. This
          // partition pauses for the group (the log reports unhealthy, so /readyz shows it) until an
          // operator restores the file and restarts.
          this.deps.logger.error(
            {
              groupId: this.groupId,
              topic: this.topic,
              partition: this.partition,
              offset: position,
              err: describeError(error),
            },
            'cannot read the event log; this partition is paused for the group',
          );
          while (!this.stopped) await this.wake.wait();
          break;
        }
        if (!record) {
          await this.wake.wait();
          continue;
        }
        const delivery = this.deliver(owner, record);
        owner.inFlight.add(delivery);
        try {
          await delivery;
        } finally {
          owner.inFlight.delete(delivery);
        }
      }
    } finally {
      this.unsubscribe();
    }
  }

  /** Committed offset if the group has one, else the member's reset policy (earliest or latest). */
  private startPosition(owner: GroupMember): number {
    if (this.position === undefined) {
      const committed = this.offsets.get(this.topic, this.partition);
      if (committed !== undefined) {
        this.position = committed;
      } else {
        this.position = owner.fromBeginning ? 0 : this.log.end;
        // Remember the reset point, so a restart resumes here instead of skipping to a later "latest".
        void this.offsets.commit(this.topic, this.partition, this.position).catch(() => undefined);
      }
    }
    return this.position;
  }

  private async deliver(owner: GroupMember, record: LogRecord): Promise<void> {
    const logger = this.deps.logger;
    try {
      const outcome = await deliverWithRetry({
        message: {
          topic: this.topic,
          partition: this.partition,
          offset: String(record.offset),
          key: record.key,
          value: record.value,
          headers: record.headers,
          timestamp: record.timestamp,
        },
        handler: owner.handler,
        policy: owner.policy,
        signal: owner.abort.signal,
        publishDeadLetter: (letter) => this.deps.publishDeadLetter(this.topic, letter),
        logger,
      });
      // Aborted: the member left mid-retry; leave the record uncommitted for the next owner.
      if (outcome === 'aborted') return;
      this.position = record.offset + 1;
      await this.offsets.commit(this.topic, this.partition, this.position);
    } catch (error) {
      // Only the offset write can get here. The position already moved on in memory and the next
      // successful commit records it; until then a crash means redelivery, which at-least-once allows.
      logger.error(
        { groupId: this.groupId, topic: this.topic, partition: this.partition, err: describeError(error) },
        'could not commit consumer offset',
      );
    }
  }
}
