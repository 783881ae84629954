import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextPollDelay } from './poll-delay.ts';

describe('the delay before the next progress poll', () => {
  it('backs off to a second while the end is further away than that', () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 9].map((attempt) => nextPollDelay(attempt, 100_000, { at: 0, processed: 0 }, { at: 1000, processed: 1000 })),
      [100, 200, 300, 500, 750, 1000, 1000],
    );
  });

  it('waits only as long as the rows left take at the last rate, and at least 100 ms', () => {
    // 10 rows a millisecond, 4 000 left: 400 ms rather than a second
    assert.equal(nextPollDelay(9, 100_000, { at: 0, processed: 86_000 }, { at: 1000, processed: 96_000 }), 400);
    // 500 left: the floor
    assert.equal(nextPollDelay(9, 100_000, { at: 0, processed: 89_500 }, { at: 1000, processed: 99_500 }), 100);
  });

  it('keeps the back-off without a rate: a first answer, no rows moved, or a clock that did not move', () => {
    assert.equal(nextPollDelay(9, 1000, undefined, { at: 5, processed: 10 }), 1000);
    assert.equal(nextPollDelay(9, 1000, { at: 0, processed: 10 }, { at: 1000, processed: 10 }), 1000);
    assert.equal(nextPollDelay(9, 1000, { at: 7, processed: 10 }, { at: 7, processed: 20 }), 1000);
  });
});
