// Typed, idempotent event consumption: parse and validate the envelope, skip an event this group already
// handled (at-least-once delivery redelivers), and run the handler inside a span whose parent is the
// producer's trace, together with the dedupe marker in one transaction.
import { events } from '@omni/proto';
import type { Logger } from '../logging/logger';
import type { Doc, DocumentStore, TransactionScope } from '../ports/documents';
import type { EventBus, IncomingMessage, RetryPolicy, Subscription } from '../ports/events';
import { SpanKind, withSpanFrom } from '../telemetry/telemetry';
import { type Envelope, parseEnvelope } from './envelope';

interface ProcessedDoc extends Doc {
  group: string;
  eventId: string;
  at: string;
}

export interface EventHandlerContext<P = undefined> {
  /** Writes through the scope commit atomically with the "handled" marker. */
  scope: TransactionScope;
  message: IncomingMessage;
  /** What `prepare` answered (undefined without one). */
  prepared: P;
}

export interface ConsumeOptions<T extends events.EventType, P = undefined> {
  bus: EventBus;
  store: DocumentStore;
  groupId: string;
  type: T;
  logger: Logger;
  retry?: Partial<RetryPolicy>;
  /**
   * Runs before the transaction, for what must not run inside it: calls to other services (a transaction
   * may be re-run on a write conflict, and should not stay open across the network). Its answer reaches
   * `handle` as `prepared`; a throw is retried like a failing handler.
   */
  prepare?: (event: Envelope<events.EventData<T>>) => Promise<P>;
  handle: (event: Envelope<events.EventData<T>>, ctx: EventHandlerContext<P>) => Promise<void>;
}

export async function consumeEvents<T extends events.EventType, P = undefined>(
  options: ConsumeOptions<T, P>,
): Promise<Subscription> {
  const { bus, store, groupId, type, logger } = options;
  const processed = store.collection<ProcessedDoc>('processed_events');
  await bus.ensureTopics([type]);
  return bus.subscribe({
    groupId,
    topics: [type],
    retry: options.retry,
    handler: (message) =>
      withSpanFrom(
        `${type} process`,
        message.headers,
        SpanKind.CONSUMER,
        {
          'messaging.system': bus.kind,
          'messaging.destination.name': type,
          'messaging.consumer.group.name': groupId,
          'messaging.message.id': message.offset,
        },
        async () => {
          const event = parseEnvelope(type, message.value);
          const markerId = `${groupId}:${event.id}`;
          if (await processed.findById(markerId)) {
            logger.debug({ eventId: event.id, type }, 'duplicate event skipped');
            return;
          }
          const prepared = (options.prepare ? await options.prepare(event) : undefined) as P;
          await store.transaction(async (scope) => {
            const marker = scope.collection<ProcessedDoc>('processed_events');
            if (await marker.findById(markerId)) return;
            await options.handle(event, { scope, message, prepared });
            await marker.insertOne({
              _id: markerId,
              group: groupId,
              eventId: event.id,
              at: new Date().toISOString(),
            });
          });
        },
      ),
  });
}
