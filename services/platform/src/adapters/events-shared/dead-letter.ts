// How a message is wrapped for `<topic>.dlq` and unwrapped again for an operator replay. The original
// key, value and headers travel unchanged (so trace context survives); the DLQ_HEADERS say where the
// message came from and why it failed.
import { DLQ_HEADERS, type IncomingMessage, type OutgoingMessage } from '../../ports/events';

/** Long stack traces would bloat every dead letter; the first part of the message is what operators read. */
const MAX_ERROR_LENGTH = 1000;

export function describeError(error: unknown): string {
  const text =
    error instanceof Error
      ? `${error.name}: ${error.message}`
      : typeof error === 'string'
        ? error
        : safeJson(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}

export function toDeadLetter(message: IncomingMessage, error: unknown, attempts: number): OutgoingMessage {
  return {
    key: message.key,
    value: message.value,
    headers: {
      ...message.headers,
      [DLQ_HEADERS.originalTopic]: message.topic,
      [DLQ_HEADERS.originalPartition]: String(message.partition),
      [DLQ_HEADERS.originalOffset]: message.offset,
      [DLQ_HEADERS.error]: describeError(error),
      [DLQ_HEADERS.attempts]: String(attempts),
    },
  };
}

const DLQ_HEADER_NAMES = new Set<string>(Object.values(DLQ_HEADERS));

/** The message as it was first published: DLQ bookkeeping headers removed, everything else kept. */
export function fromDeadLetter(dead: {
  key: string;
  value: string;
  headers: Record<string, string>;
}): OutgoingMessage {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(dead.headers)) {
    if (!DLQ_HEADER_NAMES.has(name)) headers[name] = value;
  }
  return { key: dead.key, value: dead.value, headers };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
