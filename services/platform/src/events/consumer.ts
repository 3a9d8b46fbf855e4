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

export interface EventHandlerContext {
  /** Writes through the scope commit atomically with the "handled" marker. */
  scope: TransactionScope;
  message: IncomingMessage;
}

export interface ConsumeOptions<T extends events.EventType> {
  bus: EventBus;
  store: DocumentStore;
  groupId: string;
  type: T;
  logger: Logger;
  retry?: Partial<RetryPolicy>;
  handle: (event: Envelope<events.EventData<T>>, ctx: EventHandlerContext) => Promise<void>;
}

export async function consumeEvents<T extends events.EventType>(
  options: ConsumeOptions<T>,
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
          await store.transaction(async (scope) => {
            const marker = scope.collection<ProcessedDoc>('processed_events');
            if (await marker.findById(markerId)) return;
            await options.handle(event, { scope, message });
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
