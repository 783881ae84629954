import { LecternError, whenSettled, type Actor, type TokenService } from '@lectern/core';
import type { RateCounterStore } from '@lectern/core/ports';
import type { Step } from './pipeline.ts';
import type { Hits, RateLimitState } from './rate-limit-state.ts';

export type { Hits, RateLimitState } from './rate-limit-state.ts';

export interface RateLimitOptions {
  /** requests allowed per window */
  limit: number;
  windowSeconds: number;
  now?: () => number;
}

const SWEEP_EVERY = 10_000;

/** The fixed window `now` falls in, and the state of a key that has made `count` requests in it. */
function windowAt(now: number, windowMs: number): number {
  return now - (now % windowMs);
}

function stateOf(count: number, limit: number, windowStart: number, windowMs: number, now: number): RateLimitState {
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
  };
}

function checkOptions(options: RateLimitOptions): void {
  if (!Number.isInteger(options.limit) || options.limit < 1) throw new Error('rate limit must be a whole number of at least 1');
  if (!(options.windowSeconds > 0)) throw new Error('rate limit window must be positive');
}

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
    checkOptions(options);
    this.windowMs = options.windowSeconds * 1000;
    this.now = options.now ?? Date.now;
  }

  hit(key: string): RateLimitState {
    const now = this.now();
    const start = windowAt(now, this.windowMs);
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.windows.set(key, window);
    }
    // a refused request is not counted: the window's count stops at the limit
    const state = stateOf(window.count + 1, this.options.limit, start, this.windowMs, now);
    if (state.allowed) window.count++;
    if (++this.hits % SWEEP_EVERY === 0) this.sweep(start);
    return state;
  }

  /** The state the next hit of `key` would see, without counting one. */
  peek(key: string): RateLimitState {
    const now = this.now();
    const start = windowAt(now, this.windowMs);
    const window = this.windows.get(key);
    const count = window?.start === start ? window.count : 0;
    return stateOf(count + 1, this.options.limit, start, this.windowMs, now);
  }

  private sweep(currentStart: number): void {
    for (const [key, window] of this.windows) if (window.start !== currentStart) this.windows.delete(key);
  }
}

/**
 * The same fixed windows counted in the database that several servers share, so a token's limit
 * holds across all of them (docs/scaling.md). Refused requests count too: a client hammering
 * past its limit keeps being refused until the window ends, which the headers say.
 */
export class SharedWindowRateLimiter {
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(
    private readonly counters: RateCounterStore,
    private readonly options: RateLimitOptions,
  ) {
    checkOptions(options);
    this.windowMs = options.windowSeconds * 1000;
    this.now = options.now ?? Date.now;
  }

  async hit(key: string): Promise<RateLimitState> {
    const now = this.now();
    const start = windowAt(now, this.windowMs);
    const count = await this.counters.hit(key, start);
    return stateOf(count, this.options.limit, start, this.windowMs, now);
  }

  /** The state the next hit of `key` would see, read from the shared counters without counting one. */
  async peek(key: string): Promise<RateLimitState> {
    const now = this.now();
    const start = windowAt(now, this.windowMs);
    const count = await this.counters.count(key, start);
    return stateOf(count + 1, this.options.limit, start, this.windowMs, now);
  }

  /**
   * Authenticates `token` and counts it here and, when it is allowed, its user in `user` (same
   * counters, same window), in one statement: the windows are named by `prefixes` and the ids.
   */
  async hitAsToken(tokens: TokenService, token: string, user: SharedWindowRateLimiter, prefixes: WindowPrefixes): Promise<Counted> {
    const now = this.now();
    const windowStart = windowAt(now, this.windowMs);
    const windows = { tokenPrefix: prefixes.token, userPrefix: prefixes.user, windowStart, tokenLimit: this.options.limit };
    const { actor, hits } = await tokens.actorCounted(token, this.counters, windows);
    return { actor, hits: this.statesOf(hits[0], user, hits[1], windowStart, now) };
  }

  private statesOf(count: number, other: SharedWindowRateLimiter, otherCount: number | null, start: number, now: number): Hits {
    return [
      stateOf(count, this.options.limit, start, this.windowMs, now),
      otherCount === null ? null : stateOf(otherCount, other.options.limit, start, this.windowMs, now),
    ];
  }

  sharesWindowsWith(other: SharedWindowRateLimiter): boolean {
    return other.counters === this.counters && other.windowMs === this.windowMs && other.now === this.now;
  }
}

type Limiter = FixedWindowRateLimiter | SharedWindowRateLimiter;
/** What a request's windows are named by: the prefix and then the token's or the user's id. */
export interface WindowPrefixes {
  token: string;
  user: string;
}
type Counted = { actor: Actor; hits?: Hits };

/** a token's own rate window, and the one all its user's tokens share */
export const WINDOW_PREFIXES: WindowPrefixes = { token: 'token:', user: 'user:' };

/**
 * How a bearer token becomes its actor. Where both windows are counted in the shared database
 * they are counted in the statement that finds the token (one round trip where there were two);
 * in memory the token alone is looked up, at once on SQLite, and hitWindows counts after.
 */
export function tokenResolver(
  tokens: TokenService,
  limiter: Limiter,
  userLimiter: Limiter,
  prefixes: WindowPrefixes,
): (token: string) => Counted | Promise<Counted> {
  if (limiter instanceof SharedWindowRateLimiter && userLimiter instanceof SharedWindowRateLimiter) {
    if (limiter.sharesWindowsWith(userLimiter)) return (token) => limiter.hitAsToken(tokens, token, userLimiter, prefixes);
  }
  return (token) => whenSettled(tokens.actorOf(token), (actor): Counted => ({ actor }));
}

/**
 * A request's window (`key` in `limiter`) and, when it is allowed and there is one, its user's
 * (`userKey` in `userLimiter`): the user's state, or `null` when it was not counted. In memory
 * the answer comes at once. In a shared database a token's windows were counted as it was found
 * (tokenResolver): what is left to count here is the window of a request without a valid token.
 */
export function hitWindows(limiter: Limiter, key: string, userLimiter: Limiter, userKey: string | undefined): Hits | Promise<Hits> {
  const then = (state: RateLimitState): Hits | Promise<Hits> => {
    if (!state.allowed || userKey === undefined) return [state, null];
    return whenSettled(userLimiter.hit(userKey), (counted): Hits => [state, counted]);
  };
  return whenSettled(limiter.hit(key), then);
}

export const rateLimitHeaders = (state: RateLimitState): Record<string, string> => ({
  'X-RateLimit-Limit': String(state.limit),
  'X-RateLimit-Remaining': String(state.remaining),
  'X-RateLimit-Reset': String(state.resetSeconds),
});

/** `whose`: the window that refused, when it is not the one the `X-RateLimit-*` headers describe. */
export const rateLimited = (state: RateLimitState, whose?: string) =>
  new LecternError(
    'rate_limited',
    `Too many requests: the limit${whose ? ` for ${whose}` : ''} is ${state.limit} per window. Retry after ${state.resetSeconds} s.`,
    { headers: { 'Retry-After': String(state.resetSeconds) } },
  );

/**
 * The step that counts the request in its token's window (its address's, without one) and its
 * user's, and refuses it with 429 past either limit. The headers keep describing the token's
 * window; the user's ceiling, across all of the user's tokens, only adds refusals.
 */
export function rateLimits(requests: Limiter, users: Limiter): Step {
  return async (exchange, next) => {
    const actor = exchange.auth?.actor;
    const token = actor?.kind === 'user' && actor.tokenId !== undefined ? actor : undefined;
    const key = token ? `${WINDOW_PREFIXES.token}${token.tokenId}` : `ip:${exchange.request.remoteAddress}`;
    const userKey = token ? `${WINDOW_PREFIXES.user}${token.userId}` : undefined;
    // counted already where the token was found in the shared database (tokenResolver)
    const [rate, userRate] = exchange.countedWindows ?? (await hitWindows(requests, key, users, userKey));
    exchange.rateHeaders = rateLimitHeaders(rate);
    if (!rate.allowed) {
      // requests the user's ceiling refused used up the token's window too: when that ceiling
      // is reached as well, it is the limit the client ran into, and the one the message names
      const ceiling = userKey === undefined ? undefined : await users.peek(userKey);
      throw ceiling && !ceiling.allowed ? rateLimited(ceiling, "this user's tokens together") : rateLimited(rate);
    }
    if (userRate && !userRate.allowed) throw rateLimited(userRate, "this user's tokens together");
    return next();
  };
}
