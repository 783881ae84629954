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
}
