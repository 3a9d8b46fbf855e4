// Topic and group names come from configuration and service code; both adapters check them the same
// way. The embedded log also uses topic names as directory names, so these rules are what keeps a
// name from walking out of the data directory.
import { z } from 'zod';

/** Kafka's own rule (legal characters, at most 249), minus the names `.` and `..`. */
export const topicNameSchema = z
  .string()
  .min(1)
  .max(249)
  .regex(/^[A-Za-z0-9._-]+$/, 'topic names may contain only letters, digits, ".", "_" and "-"')
  .refine((name) => name !== '.' && name !== '..', 'topic name may not be "." or ".."');

export const groupIdSchema = z.string().min(1).max(180);

export const partitionCountSchema = z.number().int().min(1).max(1000);

export function assertTopicName(topic: string): string {
  const parsed = topicNameSchema.safeParse(topic);
  if (!parsed.success)
    throw new TypeError(`invalid topic name ${JSON.stringify(topic)}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

export function assertGroupId(groupId: string): string {
  const parsed = groupIdSchema.safeParse(groupId);
  if (!parsed.success) throw new TypeError(`invalid consumer group id ${JSON.stringify(groupId)}`);
  return parsed.data;
}

export function assertPartitionCount(partitions: number): number {
  const parsed = partitionCountSchema.safeParse(partitions);
  if (!parsed.success) throw new RangeError(`partition count must be an integer 1..1000, got ${partitions}`);
  return parsed.data;
}

const outgoingMessageSchema = z.object({
  key: z.string(),
  value: z.string(),
  headers: z.record(z.string(), z.string()).optional(),
});

/** Publishers are our own services, but a wrong header type would only surface at a consumer: fail early. */
export function assertOutgoingMessages(messages: unknown): void {
  const parsed = z.array(outgoingMessageSchema).safeParse(messages);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TypeError(`invalid message at ${issue?.path.join('.')}: ${issue?.message}`);
  }
}
