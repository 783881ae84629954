import type { TokenCredentials } from './token-store.ts';

/** The windows a request made with a token counts in: `<tokenPrefix><token id>` and `<userPrefix><user id>`. */
export interface TokenWindows {
  tokenPrefix: string;
  userPrefix: string;
  windowStart: number;
  /** the user's window counts a request only when the token's count is at most this */
  tokenLimit: number;
}

/** A token found by its hash, and its windows' counts: `null` when it is not in force, so nothing was counted. */
export interface CountedCredentials {
  credentials: TokenCredentials;
  hits: [number, number | null] | null;
}

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
   * Authenticates and counts in one round trip: finds the token by hash (as
   * TokenStore.findCredentials) and, only when it is in force at `now` (its user active, not
   * expired), counts its window and, when that count is at most `tokenLimit`, its user's.
   * `undefined` when no unrevoked token has that hash.
   */
  hitByToken(tokenHash: string, now: string, windows: TokenWindows): Promise<CountedCredentials | undefined>;
  /** The count of `key` in the window that starts at `windowStart`, without counting a request. */
  count(key: string, windowStart: number): Promise<number>;
}
