// Webhook delivery, at least once, as Stripe delivers: every event is written to an outgoing queue in the
// same transaction as the change it reports (so a crash between the two loses nothing), then POSTed to the
// webhook endpoint with a Stripe-Signature header; a non-2xx answer or a connection error is retried with
// backoff, and events of one subscription go out in order (a failing one holds back the ones after it,
// other subscriptions' events still flow). Unlike Stripe, which also sends out of order, the sandbox keeps
// order so a developer's run is reproducible; billing's tests send out-of-order events themselves.
import type { DocumentStore, Logger, TransactionScope } from '@omni/platform';
import Stripe from 'stripe';
import type { OutboxDoc } from './records';
import { eventShape } from './shapes';

export interface RetryPolicy {
  /** First retry after this long (ms), doubling each time up to maxMs. */
  baseMs: number;
  maxMs: number;
  /** Stripe gives up after three days. */
  giveUpAfterMs: number;
}

export const STRIPE_LIKE_RETRIES: RetryPolicy = {
  baseMs: 1000,
  maxMs: 60 * 60 * 1000,
  giveUpAfterMs: 3 * 86_400_000,
};

const KEEP_MS = 30 * 86_400_000;

/** Adds events to the queue inside the caller's transaction; they leave only after it commits. */
export class EventQueue {
  constructor(
    private readonly scope: TransactionScope,
    private readonly created: number,
    private readonly seq: () => Promise<number>,
  ) {}

  async emit(key: string, type: string, object: { object: string }, previous?: Record<string, unknown>) {
    const event = eventShape({ type, object, previous, created: this.created });
    await this.scope.collection<OutboxDoc>('outbox').insertOne({
      _id: event.id,
      seq: await this.seq(),
      key,
      type,
      payload: JSON.stringify(event, null, 2),
      state: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
      createdAt: Date.now(),
    });
  }
}

export class Deliverer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(
    private readonly store: DocumentStore,
    private readonly o: {
      webhookUrl: () => string;
      webhookSecret: string;
      retry: RetryPolicy;
      logger: Logger;
    },
  ) {}

  /** Sends whatever is due now; called after each commit, on start (a restart resumes) and by its timer. */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private async drain(): Promise<void> {
    const outbox = this.store.collection<OutboxDoc>('outbox');
    // Stripe keeps events 30 days; so does the queue, or a long-running sandbox would only grow.
    await outbox.deleteMany({ state: { $ne: 'pending' }, createdAt: { $lt: Date.now() - KEEP_MS } });
    for (;;) {
      if (this.closed) return;
      const pending = await outbox.find({ state: 'pending' }, { sort: { seq: 1 } });
      const now = Date.now();
      const held = new Set<string>();
      const due: OutboxDoc[] = [];
      for (const doc of pending) {
        if (held.has(doc.key)) continue;
        held.add(doc.key);
        if (doc.nextAttemptAt <= now) due.push(doc);
      }
      if (due.length === 0) {
        this.schedule(pending);
        return;
      }
      // One subscription's head at a time each; different subscriptions in parallel.
      await Promise.all(due.map((doc) => this.deliver(doc)));
    }
  }

  private schedule(pending: OutboxDoc[]): void {
    clearTimeout(this.timer);
    if (pending.length === 0 || this.closed) return;
    const next = Math.min(...pending.map((d) => d.nextAttemptAt));
    this.timer = setTimeout(() => this.kick(), Math.max(0, next - Date.now()));
    this.timer.unref();
  }

  private async deliver(doc: OutboxDoc): Promise<void> {
    const outbox = this.store.collection<OutboxDoc>('outbox');
    const error = await this.post(doc.payload);
    if (error === undefined) {
      await outbox.updateOne(
        { _id: doc._id },
        { $set: { state: 'delivered', attempts: doc.attempts + 1 }, $unset: { lastError: true } },
      );
      return;
    }
    const attempts = doc.attempts + 1;
    const { baseMs, maxMs, giveUpAfterMs } = this.o.retry;
    const giveUp = Date.now() - doc.createdAt >= giveUpAfterMs;
    this.o.logger.warn(
      { event: doc._id, type: doc.type, attempts, error, giveUp },
      'sandbox webhook delivery failed',
    );
    await outbox.updateOne(
      { _id: doc._id },
      {
        $set: {
          state: giveUp ? 'failed' : 'pending',
          attempts,
          lastError: error,
          nextAttemptAt: Date.now() + Math.min(maxMs, baseMs * 2 ** (attempts - 1)),
        },
      },
    );
  }

  /** undefined when the endpoint answered 2xx, else what went wrong. */
  private async post(payload: string): Promise<string | undefined> {
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: this.o.webhookSecret });
    try {
      const res = await fetch(this.o.webhookUrl(), {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks) Omni sandbox',
        },
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      return res.ok ? undefined : `HTTP ${res.status}`;
    } catch (err) {
      return (err as Error).message;
    }
  }
}
