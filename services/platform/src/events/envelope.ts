// The event envelope every topic carries: a unique id (consumers dedupe on it), the type and schema
// version, when and where it happened, the aggregate key that picks the partition, and the data.
import { randomUUID } from 'node:crypto';
import { events } from '@omni/proto';
import { z } from 'zod';

export const envelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  version: z.number().int().positive(),
  time: z.string().datetime(),
  source: z.string().min(1),
  key: z.string().min(1),
  data: z.unknown(),
});

export type Envelope<T = unknown> = Omit<z.infer<typeof envelopeSchema>, 'data'> & { data: T };

export function makeEnvelope<T extends events.EventType>(
  type: T,
  source: string,
  key: string,
  data: events.EventInput<T>,
): Envelope<events.EventData<T>> {
  const spec = events.catalogue[type];
  // Producers validate too: an event that does not match its schema is a bug to catch at the source.
  const parsed = spec.schema.parse(data) as events.EventData<T>;
  return {
    id: randomUUID(),
    type,
    version: spec.version,
    time: new Date().toISOString(),
    source,
    key,
    data: parsed,
  };
}

/** Parses a message value into a typed envelope, or throws with the reason it does not parse. */
export function parseEnvelope<T extends events.EventType>(
  type: T,
  value: string,
): Envelope<events.EventData<T>> {
  let raw: unknown;
  try {
    raw = JSON.parse(value);
  } catch {
    throw new InvalidEventError(`event on ${type} is not JSON`);
  }
  const envelope = envelopeSchema.safeParse(raw);
  if (!envelope.success) throw new InvalidEventError(`event on ${type} has no valid envelope`);
  if (envelope.data.type !== type) throw new InvalidEventError(`expected ${type}, got ${envelope.data.type}`);
  const data = events.catalogue[type].schema.safeParse(envelope.data.data);
  if (!data.success)
    throw new InvalidEventError(`${type} data does not match its schema: ${data.error.message}`);
  return { ...envelope.data, data: data.data as events.EventData<T> };
}

export class InvalidEventError extends Error {
  override name = 'InvalidEventError';
}
