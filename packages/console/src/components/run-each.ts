/**
 * Runs one request per item with a few in flight at once, for bulk actions the API has no bulk
 * route for: a whole page at once would trip the rate limit, one at a time would be slow. Every
 * item gets its own outcome, in the items' order; one failure stops nothing.
 */
export interface ItemOutcome<T> {
  item: T;
  /** absent when the item's request succeeded */
  error?: unknown;
}

export const BULK_CONCURRENCY = 4;

export async function runEach<T>(
  items: readonly T[],
  work: (item: T) => Promise<unknown>,
  concurrency = BULK_CONCURRENCY,
): Promise<ItemOutcome<T>[]> {
  const outcomes: ItemOutcome<T>[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index] as T;
      try {
        await work(item);
        outcomes[index] = { item };
      } catch (error) {
        outcomes[index] = { item, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return outcomes;
}
