/**
 * Bounded concurrency for batches of I/O (store writes, HTTP calls): at most N in flight, results
 * in input order, and no worker still running when the caller sees the first failure.
 */

/** Runs fn over items with at most `concurrency` at once; results in the order of items; stops at the first throw. */
export async function mapInOrder<T, R>(items: ReadonlyArray<T>, concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  // allSettled first: no worker may still be running when the caller cleans up after a failure.
  const settled = await Promise.allSettled(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  const failure = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) throw failure.reason;
  return results;
}
