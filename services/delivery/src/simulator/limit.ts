// At most `size` tasks at once: verifying a batch streams every file through a hash, and many stores'
// batches arriving together must not read the disk all at the same time.
export function createLimit(size: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
