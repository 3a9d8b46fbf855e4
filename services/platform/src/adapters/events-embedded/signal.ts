/**
 * A wake-up call for one waiting loop: `wait()` resolves at the next `notify()`. Callers check their
 * condition and call `wait()` in the same synchronous stretch, so a notify cannot slip in between.
 */
export class Signal {
  private waiters: Array<() => void> = [];

  wait(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
