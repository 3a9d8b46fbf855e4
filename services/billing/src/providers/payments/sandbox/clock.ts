// The sandbox's clock, Stripe's "test clock": real time plus an offset that only grows, kept in the
// sandbox's store so a restart does not rewind subscriptions that were advanced past a renewal.
import type { Doc, DocumentStore } from '@omni/platform';

interface ClockDoc extends Doc {
  _id: 'clock';
  offset: number;
}

export class SandboxClock {
  private constructor(
    private readonly store: DocumentStore,
    private offset: number,
  ) {}

  static async open(store: DocumentStore): Promise<SandboxClock> {
    const doc = await store.collection<ClockDoc>('clock').findById('clock');
    return new SandboxClock(store, doc?.offset ?? 0);
  }

  /** Sandbox time in unix seconds (what Stripe's timestamps are). */
  now(): number {
    return Math.floor(Date.now() / 1000) + this.offset;
  }

  /** Moves the clock forward to `to` (never back: Stripe's test clocks only advance). */
  async advanceTo(to: number): Promise<void> {
    const offset = Math.max(this.offset, to - Math.floor(Date.now() / 1000));
    await this.store
      .collection<ClockDoc>('clock')
      .updateOne({ _id: 'clock' }, { $set: { offset } }, { upsert: true });
    this.offset = offset;
  }
}
