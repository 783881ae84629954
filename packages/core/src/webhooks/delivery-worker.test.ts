import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shareOut } from './delivery-worker.ts';

describe('shareOut', () => {
  it('gives each waiting endpoint up to its cap, in turn order', () => {
    assert.deepEqual(shareOut([3, 1, 2], new Map(), 100, 4), [
      [3, 4],
      [1, 4],
      [2, 4],
    ]);
  });

  it('counts what each endpoint already has in flight, and skips the saturated', () => {
    assert.deepEqual(
      shareOut(
        [1, 2, 3],
        new Map([
          [1, 4],
          [2, 1],
        ]),
        100,
        4,
      ),
      [
        [2, 3],
        [3, 4],
      ],
    );
  });

  it('stops when the overall room is used up, the last share cut to what is left', () => {
    assert.deepEqual(shareOut([1, 2, 3], new Map(), 6, 4), [
      [1, 4],
      [2, 2],
    ]);
    assert.deepEqual(shareOut([1], new Map(), 0, 4), []);
  });
});
