// The release page's live per-store status: GET /api/releases/:id/deliveries/stream, read with fetch (an
// EventSource cannot send the session's bearer) and parsed by eventsource-parser. The server sends a
// `snapshot`, then `job` and `release` as they change, and `end` when nothing moves any more; the page
// then stops listening until the user acts (a takedown, a resubmission) or reloads. A dropped connection
// is opened again once (each snapshot earns one more try), so a page left open does not retry for ever.
import {
  type DeliveryJobJson,
  deliveryJobSchema,
  RELEASE_STATUSES,
  type ReleaseDeliveryJson,
  releaseDeliverySchema,
  reviewSchema,
} from '@omni/proto/api';
import { ApiError, apiResponse } from '@omni/ui';
import { createParser } from 'eventsource-parser';
import * as z from 'zod/mini';

const releaseEventSchema = z.object({
  releaseStatus: z.enum(RELEASE_STATUSES),
  review: z._default(z.optional(z.nullable(reviewSchema)), null),
});
export type ReleaseEvent = z.infer<typeof releaseEventSchema>;

export interface DeliveryStreamHandlers {
  snapshot(delivery: ReleaseDeliveryJson): void;
  job(job: DeliveryJobJson): void;
  release(update: ReleaseEvent): void;
  /** Nothing moves: the server closed the stream on purpose. */
  end(): void;
  /** The stream could not be (re)opened: what to tell the user. */
  failed(message: string): void;
}

const RETRY_DELAY_MS = 1000;

/**
 * Follows a release's deliveries until `end`, a refusal, or the returned stop function is called.
 * `afterResubmit`: the release was just resubmitted, and delivery may not know yet; the server waits for it.
 */
export function followDeliveries(
  releaseId: string,
  on: DeliveryStreamHandlers,
  { afterResubmit = false } = {},
): () => void {
  const abort = new AbortController();
  let retries = 1;

  const dispatch = (event: string | undefined, data: string): boolean => {
    const json: unknown = JSON.parse(data);
    if (event === 'snapshot') {
      retries = 1;
      on.snapshot(releaseDeliverySchema.parse(json));
    } else if (event === 'job') on.job(deliveryJobSchema.parse(json));
    else if (event === 'release') on.release(releaseEventSchema.parse(json));
    else if (event === 'end') {
      on.end();
      return true;
    }
    return false;
  };

  async function connect(): Promise<void> {
    let ended = false;
    try {
      const query = afterResubmit ? '?after=resubmit' : '';
      const path = `/api/releases/${encodeURIComponent(releaseId)}/deliveries/stream${query}`;
      const res = await apiResponse(path, {
        headers: { accept: 'text/event-stream' },
        signal: abort.signal,
      });
      const parser = createParser({
        onEvent: (message) => {
          ended ||= dispatch(message.event, message.data);
        },
      });
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done || ended) break;
        parser.feed(value);
      }
      if (ended) {
        await reader.cancel().catch(() => undefined);
        return;
      }
    } catch (error) {
      if (abort.signal.aborted) return;
      // A refusal (not found, too many open pages, signed out) is final: say it, do not retry.
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        on.failed(error.message);
        return;
      }
    }
    if (abort.signal.aborted) return;
    if (retries > 0) {
      retries -= 1;
      setTimeout(() => void connect(), RETRY_DELAY_MS);
    } else on.failed('Live updates stopped: the connection was lost.');
  }

  void connect();
  return () => abort.abort();
}
