// Transactional outbox: a service writes its state change and the event that announces it in one
// transaction of its own document store; the relay then publishes to the bus and deletes what it
// published. A crash between the two leaves the event in the outbox, so it is published after restart:
// at least once, never lost. Consumers dedupe by event id.
import { events } from '@omni/proto';
import type { Logger } from '../logging/logger';
import type { Doc, DocumentStore, TransactionScope } from '../ports/documents';
import type { EventBus } from '../ports/events';
import { injectTraceContext } from '../telemetry/telemetry';
import { makeEnvelope } from './envelope';

interface OutboxDoc extends Doc {
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
  /** Orders events written by this process; time-prefixed so several replicas interleave sensibly. */
  seq: string;
}

const COLLECTION = 'outbox';
let counter = 0;
const nextSeq = () => `${Date.now().toString().padStart(15, '0')}-${(counter++).toString().padStart(9, '0')}`;

export class Outbox {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly store: DocumentStore,
    private readonly bus: EventBus,
    private readonly source: string,
    private readonly logger: Logger,
    private readonly sweepMs = 1000,
  ) {
    store.collection<OutboxDoc>(COLLECTION, { indexes: [{ fields: { seq: 1 } }] });
  }

  /** Adds an event to the transaction; it is published once the transaction commits and `flush` runs. */
  async add<T extends events.EventType>(
    scope: TransactionScope,
    type: T,
    key: string,
    data: events.EventInput<T>,
  ): Promise<string> {
    const envelope = makeEnvelope(type, this.source, key, data);
    // The trace context of the request that caused the event travels with it to every consumer.
    const headers = injectTraceContext({ 'content-type': 'application/json', 'x-event-type': type });
    await scope.collection<OutboxDoc>(COLLECTION).insertOne({
      _id: envelope.id,
      topic: type,
      key,
      value: JSON.stringify(envelope),
      headers,
      seq: nextSeq(),
    });
    return envelope.id;
  }

  /**
   * Adds several events of one type to the transaction in one write (in order): on a store whose
   * transactions are journaled (FerretDB) every write of a transaction costs, and an approval announces
   * one change per store.
   */
  async addMany<T extends events.EventType>(
    scope: TransactionScope,
    type: T,
    items: { key: string; data: events.EventInput<T> }[],
  ): Promise<string[]> {
    if (items.length === 0) return [];
    const headers = injectTraceContext({ 'content-type': 'application/json', 'x-event-type': type });
    const docs = items.map(({ key, data }) => {
      const envelope = makeEnvelope(type, this.source, key, data);
      return { _id: envelope.id, topic: type, key, value: JSON.stringify(envelope), headers, seq: nextSeq() };
    });
    await scope.collection<OutboxDoc>(COLLECTION).insertMany(docs);
    return docs.map((d) => d._id);
  }

  /** Starts the background sweep that publishes whatever a crash or a failed flush left behind. */
  start(): void {
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.flush()
        .catch(() => undefined)
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.sweepMs).unref();
        });
    };
    this.timer = setTimeout(tick, 0).unref();
  }

  /** Publishes everything pending now. Concurrent calls coalesce into one more pass. */
  flush(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.publishPending();
        } while (this.again);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  private async publishPending(): Promise<void> {
    const outbox = this.store.collection<OutboxDoc>(COLLECTION);
    for (;;) {
      const batch = await outbox.find({}, { sort: { seq: 1 }, limit: 500 });
      if (batch.length === 0) return;
      const byTopic = new Map<string, OutboxDoc[]>();
      for (const doc of batch) byTopic.set(doc.topic, [...(byTopic.get(doc.topic) ?? []), doc]);
      try {
        for (const [topic, docs] of byTopic) {
          await this.bus.publish(
            topic,
            docs.map((d) => ({ key: d.key, value: d.value, headers: d.headers })),
          );
        }
      } catch (err) {
        this.logger.warn({ err, pending: batch.length }, 'outbox publish failed; will retry');
        throw err;
      }
      await outbox.deleteMany({ _id: { $in: batch.map((d) => d._id) } });
      if (batch.length < 500) return;
    }
  }
}
