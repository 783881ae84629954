/** What a rate-limit window says of a request: the types the limiters and the steps share. */
export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** whole seconds until the window resets, at least 1 */
  resetSeconds: number;
}

/** A request's window and its user's, `null` when the user's was not counted. */
export type Hits = [RateLimitState, RateLimitState | null];
