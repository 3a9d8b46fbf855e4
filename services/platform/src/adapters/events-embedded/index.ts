// The embedded event-bus adapter: Kafka's semantics (partitions, key order, consumer groups with
// committed offsets, retry + dead-letter topic) in one process, durable under `<dataDir>/events`.
import type { EventBus } from '../../ports/events';
import { EmbeddedEventBus, type EmbeddedEventBusOptions } from './embedded-event-bus';

export type { EmbeddedEventBusOptions } from './embedded-event-bus';

export function createEmbeddedEventBus(options: EmbeddedEventBusOptions): EventBus {
  return new EmbeddedEventBus(options);
}
