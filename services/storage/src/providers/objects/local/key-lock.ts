// Serialises the publish step (data link/rename + sidecar rename) per object within this process, so two
// overwriting puts to one key cannot interleave and leave one's data beside the other's metadata. The
// embedded store runs in one process by design, so an in-process lock is enough.
export class KeyLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(id) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => current);
    this.tails.set(id, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(id) === tail) this.tails.delete(id);
    }
  }
}
