/**
 * Rate-limit counters kept in the database, for servers that share one: each request of a token
 * counts once whichever instance answers it. A single server keeps its counters in memory instead.
 */
export interface RateCounterStore {
  /**
   * Counts one request of `key` in the window that starts at `windowStart` (epoch milliseconds)
   * and answers the window's count including it. Windows that ended are dropped now and then.
   */
  hit(key: string, windowStart: number): Promise<number>;
  /**
   * Counts one request of `first` and, only when that count is at most `firstLimit`, one of
   * `second`, in one round trip: a token's window and its user's. Answers both counts, `null` for
   * a `second` that was not counted.
   */
  hitPair(first: string, second: string, windowStart: number, firstLimit: number): Promise<[number, number | null]>;
  /** The count of `key` in the window that starts at `windowStart`, without counting a request. */
  count(key: string, windowStart: number): Promise<number>;
}
