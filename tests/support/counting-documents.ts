// A counting decorator over the DocumentStore port, for suites and benches (never production): it counts
// the documents each collection hands back (find: every one; findOne, findById, findOneAndUpdate: the one)
// inside each transaction and outside them, and notes the events each transaction puts in the outbox, so
// a suite can say what one job transition reads. `module()` wraps a service module so that the service
// opens its documents through the decorator; `store` is the real store, for the suite's own look.
import type { Collection, Doc, DocumentStore, ServiceModule, TransactionScope } from '@omni/platform';

export interface CountedTransaction {
  /** Documents read per collection during this run of the transaction (a re-run is another entry). */
  reads: Record<string, number>;
  /** The outbox entries it wrote: event type and data. */
  events: Array<{ type: string; data: Record<string, unknown> }>;
}

const READS = new Set(['find', 'findOne', 'findById', 'findOneAndUpdate']);
const UPDATES = new Set(['updateOne', 'updateMany']);

export class CountingDocuments {
  readonly transactions: CountedTransaction[] = [];
  readonly outside: Record<string, number> = {};
  /** Documents changed by updateOne/updateMany outside transactions, per collection. */
  readonly updatedOutside: Record<string, number> = {};
  store: DocumentStore | null = null;

  /** The service module, opening its documents through this decorator. */
  module(service: ServiceModule): ServiceModule {
    return {
      ...service,
      init: (ctx) =>
        service.init({
          ...ctx,
          ports: {
            ...ctx.ports,
            documents: async (name) => this.wrap(await ctx.ports.documents(name)),
          },
        }),
    };
  }

  wrap(store: DocumentStore): DocumentStore {
    this.store = store;
    const counting = this;
    return new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'collection')
          return <T extends Doc>(name: string, spec?: Parameters<DocumentStore['collection']>[1]) =>
            counting.collection(target.collection<T>(name, spec), counting.outside, null);
        if (prop === 'transaction')
          return <R>(work: (scope: TransactionScope) => Promise<R>) =>
            target.transaction((scope) => {
              const run: CountedTransaction = { reads: {}, events: [] };
              counting.transactions.push(run);
              return work({
                collection: <T extends Doc>(name: string) =>
                  counting.collection(scope.collection<T>(name), run.reads, run),
              });
            });
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  /** Clears what was counted so far. */
  reset(): void {
    this.transactions.length = 0;
    for (const key of Object.keys(this.outside)) delete this.outside[key];
    for (const key of Object.keys(this.updatedOutside)) delete this.updatedOutside[key];
  }

  private collection<T extends Doc>(
    inner: Collection<T>,
    reads: Record<string, number>,
    run: CountedTransaction | null,
  ): Collection<T> {
    const updated = this.updatedOutside;
    return new Proxy(inner, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        if (READS.has(String(prop)))
          return async (...args: unknown[]) => {
            const result = await value.apply(target, args);
            const n = Array.isArray(result) ? result.length : result ? 1 : 0;
            reads[target.name] = (reads[target.name] ?? 0) + n;
            return result;
          };
        if (UPDATES.has(String(prop)) && !run)
          return async (...args: unknown[]) => {
            const result = (await value.apply(target, args)) as { modified: number };
            updated[target.name] = (updated[target.name] ?? 0) + result.modified;
            return result;
          };
        if (prop === 'insertOne' && target.name === 'outbox' && run)
          return async (doc: { value?: string }) => {
            const envelope = JSON.parse(doc.value ?? '{}') as {
              type?: string;
              data?: Record<string, unknown>;
            };
            run.events.push({ type: envelope.type ?? '', data: envelope.data ?? {} });
            return value.call(target, doc);
          };
        return value.bind(target);
      },
    });
  }
}

/**
 * What a job transition reads: the transactions that announced exactly one job's change (as a change of
 * the release's facts, delivery.updated, or as a step only open pages follow, delivery.progress).
 */
export function jobTransitions(counted: CountingDocuments): CountedTransaction[] {
  return counted.transactions.filter(
    (t) =>
      t.events.length === 1 &&
      (t.events[0]!.type === 'delivery.updated' || t.events[0]!.type === 'delivery.progress') &&
      t.events[0]!.data.target,
  );
}

export function readsSummary(transitions: readonly CountedTransaction[], collection: string) {
  const reads = transitions.map((t) => t.reads[collection] ?? 0);
  const total = reads.reduce((a, b) => a + b, 0);
  return {
    transitions: reads.length,
    total,
    mean: reads.length ? total / reads.length : 0,
    max: Math.max(0, ...reads),
  };
}
