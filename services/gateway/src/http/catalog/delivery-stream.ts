// GET /api/releases/:id/deliveries/stream: the release page's live per-store status as server-sent events
// (proto/api/delivery.ts, DELIVERY_STREAM_EVENTS). One subscription to delivery's events per gateway replica
// feeds a hub keyed by release; an event only says "this release changed", and the hub then reads the
// release's jobs once (however many pages watch it, and however many events arrived meanwhile) and sends
// each page the jobs that differ from what it last sent. Reading rather than relaying the event keeps a
// page right when events arrive out of order, twice, or not at all for a while.
//
// No compression sits in front of /api (only the web app's pages are served precompressed), so nothing
// buffers an event; `X-Accel-Buffering: no` asks a proxy in front (nginx) not to either.
import { hostname } from 'node:os';
import { type EventBus, HttpError, type Logger, parseEnvelope, type Subscription } from '@omni/platform';
import type { DeliveryJobJson, ReleaseDeliveryJson } from '@omni/proto/api';
import type { Response } from 'express';
import type { ReleaseFacts } from './delivery-json';

export interface DeliveryStreamOptions {
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /** A stream closes after this long whatever happens; the page may open another. */
  maxMs: number;
  /** Open streams per user (tabs): one more answers 429. */
  perUser: number;
}

export const STREAM_DEFAULTS: DeliveryStreamOptions = {
  heartbeatMs: 15_000,
  maxMs: 10 * 60_000,
  perUser: 10,
};

export const TOO_MANY_STREAMS =
  'Too many pages are following deliveries at once. Close some tabs and reload this page.';

/** A page that stops reading (more than this queued, unsent) is dropped rather than buffered for ever. */
const MAX_BUFFERED_BYTES = 1 << 20;

interface Stream {
  res: Response;
  userId: string;
  releaseId: string;
  openedAt: number;
  /** What this page was last sent: each job as JSON by store, and the release's status. */
  sent?: { jobs: Map<string, string>; releaseStatus: string; review: string };
  /** An update arrived before the snapshot was sent: read again after it. */
  stale: boolean;
}

type Load = (releaseId: string, facts: ReleaseFacts) => Promise<ReleaseDeliveryJson>;

/** What the page knows delivery will catch up with. */
export interface Expected extends ReleaseFacts {
  /** The page has just resubmitted the release: delivery will put it back in review. */
  resubmitted: boolean;
}

/**
 * Delivery learns of a new release, or of a resubmitted one, from catalog's event, a moment after catalog
 * answered. Until it has (jobs missing; still 'rejected' after the page's resubmission), the stream reads
 * again this soon, since no delivery event announces it; a resubmission is waited for CATCH_UP_MS at most.
 */
const BEHIND_RETRY_MS = 500;
const CATCH_UP_MS = 15_000;

export class DeliveryStreams {
  private readonly byRelease = new Map<string, Set<Stream>>();
  private readonly perUser = new Map<string, number>();
  /** Releases being read now; `true` = read again when done (an event arrived meanwhile). */
  private readonly reading = new Map<string, boolean>();
  /** What each followed release will come to, and until when a resubmission is waited for. */
  private readonly expected = new Map<string, ReleaseFacts & { resubmittedUntil: number }>();
  /** Releases to read again shortly because some of their jobs were not written yet. */
  private readonly rereads = new Map<string, NodeJS.Timeout>();
  private readonly ticker: NodeJS.Timeout;

  constructor(
    private readonly load: Load,
    private readonly logger: Logger,
    private readonly options: DeliveryStreamOptions = STREAM_DEFAULTS,
  ) {
    this.ticker = setInterval(() => this.tick(), Math.min(options.heartbeatMs, options.maxMs));
    this.ticker.unref();
  }

  /** Opens a stream on `res`. Throws (before any byte is written) when the user has too many or delivery fails. */
  async open(res: Response, releaseId: string, userId: string, expected: Expected): Promise<void> {
    if ((this.perUser.get(userId) ?? 0) >= this.options.perUser)
      throw new HttpError(429, TOO_MANY_STREAMS, 'too_many_streams');
    const stream: Stream = { res, userId, releaseId, openedAt: Date.now(), stale: false };
    // Registered before the snapshot is read, so an update that lands during the read is not lost.
    this.add(stream);
    this.expected.set(releaseId, {
      expectedJobs: expected.expectedJobs,
      resubmittedUntil: expected.resubmitted
        ? Date.now() + CATCH_UP_MS
        : (this.expected.get(releaseId)?.resubmittedUntil ?? 0),
    });
    res.on('close', () => this.remove(stream));
    let snapshot: ReleaseDeliveryJson;
    try {
      snapshot = this.catchingUp(releaseId, await this.load(releaseId, expected));
    } catch (err) {
      this.remove(stream);
      throw err;
    }
    if (res.destroyed) return;
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
      Connection: 'keep-alive',
    });
    res.flushHeaders();
    this.send(stream, 'snapshot', snapshot);
    stream.sent = {
      jobs: new Map(snapshot.jobs.map((j) => [j.target, JSON.stringify(j)])),
      releaseStatus: snapshot.releaseStatus,
      review: JSON.stringify(snapshot.review),
    };
    if (!snapshot.moving) this.end(stream);
    else if (stream.stale) this.notify(releaseId);
    else this.rereadIfBehind(releaseId, snapshot);
  }

  /** Something about this release changed: each page watching it gets what differs. */
  notify(releaseId: string): void {
    const streams = this.byRelease.get(releaseId);
    if (!streams) return;
    for (const s of streams) if (!s.sent) s.stale = true;
    if (this.reading.has(releaseId)) {
      this.reading.set(releaseId, true);
      return;
    }
    this.reading.set(releaseId, false);
    void this.refresh(releaseId);
  }

  /** Open streams (for tests and health). */
  get size(): number {
    let n = 0;
    for (const set of this.byRelease.values()) n += set.size;
    return n;
  }

  close(): void {
    clearInterval(this.ticker);
    for (const timer of this.rereads.values()) clearTimeout(timer);
    this.rereads.clear();
    for (const set of this.byRelease.values()) for (const s of set) s.res.end();
    this.byRelease.clear();
    this.perUser.clear();
  }

  private async refresh(releaseId: string): Promise<void> {
    try {
      for (;;) {
        this.reading.set(releaseId, false);
        if (!this.byRelease.has(releaseId)) return;
        try {
          const now = this.catchingUp(
            releaseId,
            await this.load(releaseId, this.expected.get(releaseId) ?? { expectedJobs: 0 }),
          );
          for (const s of this.byRelease.get(releaseId) ?? []) this.update(s, now);
          this.rereadIfBehind(releaseId, now);
        } catch (err) {
          // The next event reads again; the pages keep what they have meanwhile.
          this.logger.warn({ err, releaseId }, 'delivery did not answer; live pages not updated');
        }
        if (!this.reading.get(releaseId)) return;
      }
    } finally {
      this.reading.delete(releaseId);
    }
  }

  /** Delivery has not caught up with catalog yet: the release is `moving` (something will change). */
  private behind(releaseId: string, now: ReleaseDeliveryJson): boolean {
    const expected = this.expected.get(releaseId);
    if (!expected) return false;
    if (now.jobs.length < expected.expectedJobs) return true;
    return now.releaseStatus === 'rejected' && Date.now() < expected.resubmittedUntil;
  }

  private catchingUp(releaseId: string, now: ReleaseDeliveryJson): ReleaseDeliveryJson {
    return !now.moving && this.behind(releaseId, now) ? { ...now, moving: true } : now;
  }

  private rereadIfBehind(releaseId: string, now: ReleaseDeliveryJson): void {
    if (!this.behind(releaseId, now) || this.rereads.has(releaseId)) return;
    const timer = setTimeout(() => {
      this.rereads.delete(releaseId);
      this.notify(releaseId);
    }, BEHIND_RETRY_MS);
    timer.unref();
    this.rereads.set(releaseId, timer);
  }

  private update(stream: Stream, now: ReleaseDeliveryJson): void {
    const sent = stream.sent;
    if (!sent) return;
    for (const job of now.jobs) {
      const json = JSON.stringify(job);
      if (sent.jobs.get(job.target) === json) continue;
      sent.jobs.set(job.target, json);
      this.send(stream, 'job', job satisfies DeliveryJobJson);
    }
    const review = JSON.stringify(now.review);
    if (sent.releaseStatus !== now.releaseStatus || sent.review !== review) {
      sent.releaseStatus = now.releaseStatus;
      sent.review = review;
      this.send(stream, 'release', { releaseStatus: now.releaseStatus, review: now.review });
    }
    if (!now.moving) this.end(stream);
  }

  private send(stream: Stream, event: string, data: unknown): void {
    const { res } = stream;
    if (res.destroyed || res.writableEnded) return;
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      this.logger.warn({ releaseId: stream.releaseId }, 'a page stopped reading its delivery stream; closed');
      res.destroy();
      return;
    }
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Nothing moves any more: say so and close; the page reconnects only on its own action. */
  private end(stream: Stream): void {
    this.send(stream, 'end', {});
    stream.res.end();
    this.remove(stream);
  }

  private tick(): void {
    const now = Date.now();
    for (const set of this.byRelease.values())
      for (const s of set) {
        if (!s.sent) continue;
        if (now - s.openedAt >= this.options.maxMs) {
          // Closed without `end`: the page knows it may open a new stream.
          s.res.end();
          this.remove(s);
        } else if (!s.res.writableEnded) s.res.write(': heartbeat\n\n');
      }
  }

  private add(stream: Stream): void {
    const set = this.byRelease.get(stream.releaseId) ?? new Set();
    this.byRelease.set(stream.releaseId, set);
    set.add(stream);
    this.perUser.set(stream.userId, (this.perUser.get(stream.userId) ?? 0) + 1);
  }

  private remove(stream: Stream): void {
    const set = this.byRelease.get(stream.releaseId);
    if (!set?.delete(stream)) return;
    if (set.size === 0) {
      this.byRelease.delete(stream.releaseId);
      this.expected.delete(stream.releaseId);
    }
    const n = (this.perUser.get(stream.userId) ?? 1) - 1;
    if (n <= 0) this.perUser.delete(stream.userId);
    else this.perUser.set(stream.userId, n);
  }
}

/** Every gateway replica serves its own pages, so each listens in a consumer group of its own. */
export async function followDeliveryUpdates(
  bus: EventBus,
  streams: DeliveryStreams,
  logger: Logger,
): Promise<Subscription> {
  // A release's facts changed (delivery.updated) or only one store's step (delivery.progress): either way
  // the pages following it read its jobs again.
  const topics = ['delivery.updated', 'delivery.progress'] as const;
  await bus.ensureTopics([...topics]);
  return bus.subscribe({
    groupId: `gateway.delivery-streams.${hostname()}`,
    topics: [...topics],
    fromBeginning: false,
    handler: async (message) => {
      const type = message.topic === 'delivery.progress' ? 'delivery.progress' : 'delivery.updated';
      try {
        streams.notify(parseEnvelope(type, message.value).data.releaseId);
      } catch (err) {
        logger.warn({ err, key: message.key, type }, 'a delivery event did not parse; skipped');
      }
    },
  });
}
