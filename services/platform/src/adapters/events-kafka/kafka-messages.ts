// Conversions between kafkajs' wire types (Buffers, optional fields, string offsets) and the port's.
import type { IHeaders, KafkaMessage } from 'kafkajs';
import type { IncomingMessage } from '../../ports/events';

/** Header values arrive as Buffers (or arrays of them when a name repeats); the port carries strings. */
export function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    // A repeated header: the port has one value per name; the last one wins, as in most HTTP stacks.
    const single = Array.isArray(value) ? value[value.length - 1] : value;
    if (single !== undefined) result[name] = single.toString();
  }
  return result;
}

export function toIncoming(
  topic: string,
  partition: number,
  message: KafkaMessage,
): Omit<IncomingMessage, 'attempt'> {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key?.toString() ?? '',
    value: message.value?.toString() ?? '',
    headers: headersToStrings(message.headers),
    timestamp: Number(message.timestamp),
  };
}

/** The offset to commit after handling `offset`: Kafka commits the next offset to read. */
export function nextOffset(offset: string): string {
  return (BigInt(offset) + 1n).toString();
}
