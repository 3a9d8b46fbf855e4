// What every sandbox operation shares: the store, the clock, the prices, and `change`, which runs one
// change of state in a transaction together with the events it emits, one change at a time (the clock
// walks several subscriptions; a checkout completing meanwhile must not interleave with it), then wakes
// the deliverer.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DocumentStore, TransactionScope } from '@omni/platform';
import type { SandboxClock } from './clock';
import { type Deliverer, EventQueue } from './outbox';
import type { SandboxPrice } from './records';

export interface SandboxContext {
  store: DocumentStore;
  clock: SandboxClock;
  prices: Record<string, SandboxPrice>;
  publicUrl: () => string;
  change<R>(work: (scope: TransactionScope, events: EventQueue, now: number) => Promise<R>): Promise<R>;
  /** Runs `work` holding the same lock as `change` (the clock's walk is many changes). */
  exclusive<R>(work: () => Promise<R>): Promise<R>;
}

export function createContext(o: {
  store: DocumentStore;
  clock: SandboxClock;
  prices: Record<string, SandboxPrice>;
  publicUrl: () => string;
  deliverer: Deliverer;
}): SandboxContext {
  let tail: Promise<unknown> = Promise.resolve();
  // Marks the async work that holds the lock, so the clock's walk can make changes without waiting on
  // itself while every other caller still queues.
  const holder = new AsyncLocalStorage<true>();
  const exclusive = <R>(work: () => Promise<R>): Promise<R> => {
    if (holder.getStore()) return work();
    const run = tail.then(() => holder.run(true, work));
    tail = run.catch(() => undefined);
    return run;
  };
  const seq = () => o.store.nextSequence('sandbox_events');
  return {
    store: o.store,
    clock: o.clock,
    prices: o.prices,
    publicUrl: o.publicUrl,
    exclusive,
    async change(work) {
      const result = await exclusive(() =>
        o.store.transaction((scope) => work(scope, new EventQueue(scope, o.clock.now(), seq), o.clock.now())),
      );
      o.deliverer.kick();
      return result;
    },
  };
}
