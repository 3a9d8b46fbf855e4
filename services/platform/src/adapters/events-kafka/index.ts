// The Kafka event-bus adapter (production): kafkajs with an idempotent producer, consumer groups that
// commit after the handler, and the shared retry / dead-letter behaviour.
import type { EventBus } from '../../ports/events';
import { KafkaEventBus, type KafkaEventBusOptions } from './kafka-event-bus';

export type { KafkaEventBusOptions } from './kafka-event-bus';

export function createKafkaEventBus(options: KafkaEventBusOptions): EventBus {
  return new KafkaEventBus(options);
}
