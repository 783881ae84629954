import { LecternError } from '@lectern/core';

export interface RateLimitOptions {
  /** requests allowed per window */
  limit: number;
  windowSeconds: number;
  now?: () => number;
}

export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** whole seconds until the window resets, at least 1 */
  resetSeconds: number;
}

const SWEEP_EVERY = 10_000;

/**
 * Fixed-window counters kept in memory: a database write per request would cost more than the
 * request. Counters reset on restart, which errs on the side of letting clients through.
 */
export class FixedWindowRateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly windowMs: number;
  private readonly now: () => number;
  private hits = 0;

  constructor(private readonly options: RateLimitOptions) {
    if (!Number.isInteger(options.limit) || options.limit < 1) throw new Error('rate limit must be a whole number of at least 1');
    if (!(options.windowSeconds > 0)) throw new Error('rate limit window must be positive');
    this.windowMs = options.windowSeconds * 1000;
    this.now = options.now ?? Date.now;
  }

  hit(key: string): RateLimitState {
    const now = this.now();
    const start = now - (now % this.windowMs);
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.windows.set(key, window);
    }
    const allowed = window.count < this.options.limit;
    if (allowed) window.count++;
    if (++this.hits % SWEEP_EVERY === 0) this.sweep(start);
    return {
      allowed,
      limit: this.options.limit,
      remaining: this.options.limit - window.count,
      resetSeconds: Math.max(1, Math.ceil((start + this.windowMs - now) / 1000)),
    };
  }

  private sweep(currentStart: number): void {
    for (const [key, window] of this.windows) if (window.start !== currentStart) this.windows.delete(key);
  }
}

export const rateLimitHeaders = (state: RateLimitState): Record<string, string> => ({
  'X-RateLimit-Limit': String(state.limit),
  'X-RateLimit-Remaining': String(state.remaining),
  'X-RateLimit-Reset': String(state.resetSeconds),
});

export const rateLimited = (state: RateLimitState) =>
  new LecternError('rate_limited', `Too many requests: the limit is ${state.limit} per window. Retry after ${state.resetSeconds} s.`, {
    headers: { 'Retry-After': String(state.resetSeconds) },
  });
