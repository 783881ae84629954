import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FixedWindowRateLimiter } from './rate-limit.ts';

describe('fixed-window rate limiter', () => {
  it('counts per key, refuses past the limit and resets with the window', () => {
    let now = 60_000 * 100 + 15_000;
    const limiter = new FixedWindowRateLimiter({ limit: 2, windowSeconds: 60, now: () => now });
    assert.deepEqual(limiter.hit('a'), { allowed: true, limit: 2, remaining: 1, resetSeconds: 45 });
    assert.equal(limiter.hit('a').remaining, 0);
    const refused = limiter.hit('a');
    assert.equal(refused.allowed, false);
    assert.equal(refused.remaining, 0);
    assert.equal(limiter.hit('b').allowed, true, 'keys are independent');
    now += 45_000;
    assert.deepEqual(limiter.hit('a'), { allowed: true, limit: 2, remaining: 1, resetSeconds: 60 });
  });

  it('reports at least one second until reset and rejects bad options', () => {
    const limiter = new FixedWindowRateLimiter({ limit: 1, windowSeconds: 1, now: () => 999 });
    assert.equal(limiter.hit('k').resetSeconds, 1);
    assert.throws(() => new FixedWindowRateLimiter({ limit: 0, windowSeconds: 60 }));
    assert.throws(() => new FixedWindowRateLimiter({ limit: 1, windowSeconds: 0 }));
  });
});
