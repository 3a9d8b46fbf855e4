// The admin side of delivery as the screens call it: the release review queue (approve, reject) and the
// failed deliveries (dead letters, replay). Answers are parsed with the contract's schemas.
import { deadLetterSchema, type ReviewStatus, reviewQueueSchema } from '@omni/proto/api';
import { apiFetch } from '@omni/ui';
import * as z from 'zod/mini';

const post = (path: string, body?: unknown) =>
  apiFetch(path, { method: 'POST', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

const messageSchema = z.object({ message: z.string() });
const deadLettersSchema = z.object({ items: z.array(deadLetterSchema) });

export async function fetchReviewQueue(status: ReviewStatus, cursor: string | null) {
  const query = new URLSearchParams({ status });
  if (cursor) query.set('cursor', cursor);
  return reviewQueueSchema.parse(await apiFetch(`/api/admin/releases?${query}`));
}

export const approveRelease = async (id: string) =>
  messageSchema.parse(await post(`/api/admin/releases/${encodeURIComponent(id)}/approve`)).message;

export const rejectRelease = async (id: string, reason: string) =>
  messageSchema.parse(await post(`/api/admin/releases/${encodeURIComponent(id)}/reject`, { reason })).message;

export const fetchDeadLetters = async () =>
  deadLettersSchema.parse(await apiFetch('/api/admin/deliveries/dead-letters')).items;

export const replayDelivery = async (releaseId: string, store: string) =>
  messageSchema.parse(
    await post(
      `/api/admin/deliveries/dead-letters/${encodeURIComponent(releaseId)}/${encodeURIComponent(store)}/replay`,
    ),
  ).message;
