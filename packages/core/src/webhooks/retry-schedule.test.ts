import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from '../config.ts';
import { DEFAULT_DISABLE_THRESHOLD_MS, parseRetryAfter, retryDelaySeconds, shouldDisableEndpoint } from './retry-schedule.ts';

const mid = () => 0.5; // no jitter
const low = () => 0; // -20 %
const high = () => 0.999999; // just under +20 %

describe('retryDelaySeconds', () => {
  it('follows the default schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7].map((attempt) => retryDelaySeconds({ attempt, random: mid }));
    assert.deepEqual(delays, [5, 300, 1800, 7200, 18000, 36000, 36000]);
    assert.deepEqual(DEFAULT_WEBHOOK_RETRY_SCHEDULE, [5, 300, 1800, 7200, 18000, 36000, 36000]);
  });

  it('gives up after the 8th attempt', () => {
    assert.equal(retryDelaySeconds({ attempt: 8, random: mid }), null);
    assert.equal(retryDelaySeconds({ attempt: 20, random: mid }), null);
  });

  it('jitters by ±20 %', () => {
    assert.equal(retryDelaySeconds({ attempt: 2, random: low }), 240);
    assert.ok(Math.abs(retryDelaySeconds({ attempt: 2, random: high })! - 360) < 0.01);
    for (let i = 0; i < 200; i++) {
      const delay = retryDelaySeconds({ attempt: 1 })!;
      assert.ok(delay >= 4 && delay <= 6, `delay ${delay} out of range`);
    }
  });

  it('uses a custom schedule, whose length sets the number of attempts', () => {
    const schedule = [1, 2];
    assert.equal(retryDelaySeconds({ attempt: 1, schedule, random: mid }), 1);
    assert.equal(retryDelaySeconds({ attempt: 2, schedule, random: mid }), 2);
    assert.equal(retryDelaySeconds({ attempt: 3, schedule, random: mid }), null);
    assert.equal(retryDelaySeconds({ attempt: 1, schedule: [0], random: high }), 0);
  });

  it('honours Retry-After on 429/502/503/504, clamped to [scheduled, 2 × scheduled], unjittered', () => {
    for (const status of [429, 502, 503, 504]) {
      assert.equal(retryDelaySeconds({ attempt: 2, status, retryAfterSeconds: 450, random: low }), 450);
      assert.equal(retryDelaySeconds({ attempt: 2, status, retryAfterSeconds: 0, random: low }), 300);
      assert.equal(retryDelaySeconds({ attempt: 2, status, retryAfterSeconds: 86_400, random: low }), 600);
    }
  });

  it('ignores Retry-After on other statuses, on network errors, and when absent', () => {
    for (const status of [500, 400, 410, 301, null, undefined]) {
      assert.equal(retryDelaySeconds({ attempt: 2, status, retryAfterSeconds: 450, random: mid }), 300);
    }
    assert.equal(retryDelaySeconds({ attempt: 2, status: 503, retryAfterSeconds: null, random: mid }), 300);
    assert.equal(retryDelaySeconds({ attempt: 2, status: 503, retryAfterSeconds: Number.NaN, random: mid }), 300);
  });

  it('still gives up when the schedule is exhausted, whatever Retry-After says', () => {
    assert.equal(retryDelaySeconds({ attempt: 8, status: 503, retryAfterSeconds: 10 }), null);
  });

  it('rejects nonsensical attempts and schedules', () => {
    for (const attempt of [0, -1, 1.5, Number.NaN]) assert.throws(() => retryDelaySeconds({ attempt }), RangeError);
    assert.throws(() => retryDelaySeconds({ attempt: 1, schedule: [-5] }), RangeError);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2024, 0, 1, 12, 0, 0);

  const cases: Array<[string | null | undefined, number | null]> = [
    ['120', 120],
    [' 30 ', 30],
    ['0', 0],
    ['Mon, 01 Jan 2024 12:02:00 GMT', 120], // IMF-fixdate
    ['Mon, 01 Jan 2024 12:00:00 GMT', 0],
    ['Mon, 01 Jan 2024 11:00:00 GMT', 0], // in the past
    ['Monday, 01-Jan-24 12:00:30 GMT', 30], // RFC 850
    ['Mon Jan  1 12:01:00 2024', 60], // asctime
    ['Tue, 02 Jan 2024 12:00:00 GMT', 86_400],
    [null, null],
    [undefined, null],
    ['', null],
    ['-5', null],
    ['1.5', null],
    ['soon', null],
    ['2024-01-01T12:02:00Z', null], // ISO is not an HTTP-date
    ['Mon, 31 Feb 2024 12:00:00 GMT', null],
    ['Mon, 01 Foo 2024 12:00:00 GMT', null],
    ['Mon, 01 Jan 2024 25:00:00 GMT', null],
    ['hello 2', null],
  ];
  for (const [value, expected] of cases) {
    it(`${JSON.stringify(value)} → ${expected}`, () => {
      assert.equal(parseRetryAfter(value, now), expected);
      assert.equal(parseRetryAfter(value, new Date(now)), expected);
    });
  }

  it('rounds partial seconds up', () => {
    assert.equal(parseRetryAfter('Mon, 01 Jan 2024 12:00:10 GMT', now + 500), 10);
  });

  it('reads two-digit RFC 850 years within 50 years of now', () => {
    const in1999 = Date.UTC(1999, 0, 1);
    assert.equal(parseRetryAfter('Friday, 01-Jan-99 00:00:05 GMT', in1999), 5);
    // From 2024, "99" would be 2099 (> 50 years ahead), so it means 1999, long past.
    assert.equal(parseRetryAfter('Friday, 01-Jan-99 00:00:05 GMT', now), 0);
  });
});

describe('shouldDisableEndpoint', () => {
  const now = new Date('2024-01-10T00:00:00.000Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('disables at once on 410 Gone', () => {
    assert.match(shouldDisableEndpoint({ firstFailureAt: now, now, lastStatus: 410 }) ?? '', /410 Gone/);
    assert.match(shouldDisableEndpoint({ firstFailureAt: null, now, lastStatus: 410 }) ?? '', /410/);
  });

  it('keeps an endpoint that has been failing for less than 5 days', () => {
    assert.equal(shouldDisableEndpoint({ firstFailureAt: ago(DEFAULT_DISABLE_THRESHOLD_MS - 1), now, lastStatus: 500 }), null);
    assert.equal(shouldDisableEndpoint({ firstFailureAt: ago(60_000), now, lastStatus: null }), null);
  });

  it('disables once failures have lasted 5 days', () => {
    assert.equal(DEFAULT_DISABLE_THRESHOLD_MS, 5 * 24 * 3600 * 1000);
    assert.match(shouldDisableEndpoint({ firstFailureAt: ago(DEFAULT_DISABLE_THRESHOLD_MS), now, lastStatus: 503 }) ?? '', /5 days/);
    assert.match(shouldDisableEndpoint({ firstFailureAt: ago(9 * 86_400_000).getTime(), now: now.getTime() }) ?? '', /9 days/);
  });

  it('does nothing without a run of failures', () => {
    assert.equal(shouldDisableEndpoint({ firstFailureAt: null, now, lastStatus: 500 }), null);
    assert.equal(shouldDisableEndpoint({ firstFailureAt: undefined, now }), null);
  });

  it('takes a configurable threshold', () => {
    assert.match(shouldDisableEndpoint({ firstFailureAt: ago(90_000), now, thresholdMs: 60_000 }) ?? '', /1 minute /);
    assert.match(shouldDisableEndpoint({ firstFailureAt: ago(3 * 3_600_000), now, thresholdMs: 3_600_000 }) ?? '', /3 hours/);
    assert.equal(shouldDisableEndpoint({ firstFailureAt: ago(30_000), now, thresholdMs: 60_000 }), null);
  });
});
