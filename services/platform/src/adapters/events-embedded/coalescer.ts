// Group commit: many callers ask for "flush what I just added"; one flush runs at a time and every
// request that arrives while it runs is served by the single next flush. That turns N concurrent
// publishes into ~2 fsyncs instead of N, which is what makes a burst of events cheap.
interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export class Coalescer {
  private running = false;
  private waiting: Deferred | undefined;

  constructor(private readonly work: () => Promise<void>) {}

  /** Resolves after a run of `work` that started after this call. */
  request(): Promise<void> {
    if (!this.waiting) {
      this.waiting = deferred();
      // Start on a microtask rather than now, so publishes issued in the same tick share the first flush.
      if (!this.running) {
        this.running = true;
        queueMicrotask(() => void this.drain());
      }
    }
    return this.waiting.promise;
  }

  private async drain(): Promise<void> {
    while (this.waiting) {
      const batch = this.waiting;
      this.waiting = undefined;
      try {
        await this.work();
        batch.resolve();
      } catch (error) {
        batch.reject(error);
      }
    }
    this.running = false;
  }
}
