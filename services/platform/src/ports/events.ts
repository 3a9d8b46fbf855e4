// The event-bus port: Kafka (kafkajs) in production, the embedded durable log under ./data on one machine.
// Semantics both adapters keep: topics split into partitions, a message's key picks its partition so one
// key's messages stay in order, consumer groups share partitions and commit offsets after the handler
// succeeds (at-least-once), failing messages are retried with backoff and then moved to `<topic>.dlq`.

export interface OutgoingMessage {
  /** Partition key: the aggregate id. */
  key: string;
  value: string;
  headers?: Record<string, string>;
}

export interface IncomingMessage {
  topic: string;
  partition: number;
  /** Decimal string, as Kafka reports offsets. */
  offset: string;
  key: string;
  value: string;
  headers: Record<string, string>;
  /** Milliseconds since the epoch when the log accepted it. */
  timestamp: number;
  /** 1 on first delivery; grows with each retry. */
  attempt: number;
}

export interface RetryPolicy {
  /** Total deliveries before the message goes to the dead-letter topic (default 5). */
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
}

export interface SubscribeOptions {
  groupId: string;
  topics: string[];
  handler: (message: IncomingMessage) => Promise<void>;
  retry?: Partial<RetryPolicy>;
  /** Start from the earliest retained offset when the group has no committed offset (default true). */
  fromBeginning?: boolean;
}

export interface Subscription {
  /** Stops fetching, waits for the in-flight message, commits, leaves the group. */
  close(): Promise<void>;
}

export interface DeadLetter {
  topic: string;
  partition: number;
  offset: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}

export interface EventBus {
  readonly kind: string;
  /** Resolves once every message is durably accepted by the log (acks=all). */
  publish(topic: string, messages: OutgoingMessage[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  /** Creates topics if missing (partitions default 3). */
  ensureTopics(topics: string[], partitions?: number): Promise<void>;
  /**
   * Operator replay: re-publishes every message from `<topic>.dlq` onto `topic` and returns how many
   * were replayed. Dead-letter headers carry the original topic, partition, offset and last error.
   */
  replayDeadLetters(topic: string): Promise<number>;
  ready(): Promise<void>;
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

/** Header names used on dead-lettered messages. */
export const DLQ_HEADERS = {
  originalTopic: 'x-omni-dlq-topic',
  originalPartition: 'x-omni-dlq-partition',
  originalOffset: 'x-omni-dlq-offset',
  error: 'x-omni-dlq-error',
  attempts: 'x-omni-dlq-attempts',
} as const;

export const deadLetterTopic = (topic: string) => `${topic}.dlq`;
