import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  completionInsight,
  feedbackInsight,
  overdueInsight,
  passFailInsight,
  percentage,
  ratingCountsFromRows,
  ratingsInsight,
} from './insight-math.ts';

describe('percentage', () => {
  const cases: Array<[count: number, total: number, want: number]> = [
    [0, 0, 0],
    [5, 0, 0],
    [0, 10, 0],
    [10, 10, 100],
    [1, 3, 33],
    [2, 3, 67],
    [1, 8, 13], // 12.5 rounds up
    [3, 8, 38], // 37.5 rounds up
    [1, 200, 1], // 0.5 rounds up
    [1, 201, 0], // 0.4975 rounds down
    [199, 200, 100], // 99.5 rounds up to 100
    [1, 6, 17], // 16.67
    [5, 40, 13], // 12.5
    [7, 1000, 1], // 0.7
    [29, 200, 15], // 14.5 rounds up (floating point would give 14.499…)
  ];
  for (const [count, total, want] of cases) it(`${count}/${total} → ${want}`, () => assert.equal(percentage(count, total), want));

  it('agrees with floor(x + ½) computed in BigInt for every count up to 400', () => {
    for (let total = 1; total <= 400; total++) {
      for (let count = 0; count <= total; count++) {
        const want = Number((200n * BigInt(count) + BigInt(total)) / (2n * BigInt(total)));
        assert.equal(percentage(count, total), want, `${count}/${total}`);
      }
    }
  });

  it('rejects negative or fractional inputs', () => {
    assert.throws(() => percentage(-1, 10), RangeError);
    assert.throws(() => percentage(1, 2.5), RangeError);
    assert.throws(() => percentage(Number.NaN, 10), RangeError);
  });
});

const b = (count: number, percentage: number) => ({ count, percentage });

describe('completionInsight', () => {
  it('always has total and all five buckets, even when empty', () => {
    assert.deepEqual(completionInsight({}), {
      total: 0,
      completed: b(0, 0),
      in_progress: b(0, 0),
      not_started: b(0, 0),
      dropped: b(0, 0),
      exempted: b(0, 0),
    });
  });

  it('counts dropped in the total and computes each share', () => {
    assert.deepEqual(completionInsight({ completed: 3, in_progress: 2, not_started: 1, dropped: 1, exempted: 1 }), {
      total: 8,
      completed: b(3, 38),
      in_progress: b(2, 25),
      not_started: b(1, 13),
      dropped: b(1, 13),
      exempted: b(1, 13),
    });
  });

  it('fills missing states with 0 and lists buckets in the spec order', () => {
    const result = completionInsight({ completed: 1, not_started: 2 });
    assert.deepEqual(Object.keys(result), ['total', 'completed', 'in_progress', 'not_started', 'dropped', 'exempted']);
    assert.deepEqual([result.total, result.completed, result.not_started, result.exempted], [3, b(1, 33), b(2, 67), b(0, 0)]);
  });

  it('allows percentages that do not sum to 100', () => {
    const result = completionInsight({ completed: 1, in_progress: 1, not_started: 1 });
    assert.equal(result.completed.percentage + result.in_progress.percentage + result.not_started.percentage, 99);
  });

  it('rejects bad counts', () => {
    assert.throws(() => completionInsight({ completed: -1 }), RangeError);
  });
});

describe('overdueInsight', () => {
  it('totals the overdue assignments and splits them by state', () => {
    assert.deepEqual(overdueInsight({ not_started: 3, in_progress: 1 }), {
      total: 4,
      not_started: b(3, 75),
      in_progress: b(1, 25),
    });
  });
  it('is all zeros when nothing is overdue', () => {
    assert.deepEqual(overdueInsight({}), { total: 0, not_started: b(0, 0), in_progress: b(0, 0) });
  });
});

describe('feedbackInsight', () => {
  it('reports the two counts, defaulting to 0', () => {
    assert.deepEqual(feedbackInsight({ ratings_count: 7, reviews_count: 2 }), { ratings_count: 7, reviews_count: 2 });
    assert.deepEqual(feedbackInsight({}), { ratings_count: 0, reviews_count: 0 });
  });
});

describe('ratingsInsight', () => {
  it('has a null average and an all-zero distribution with no ratings', () => {
    assert.deepEqual(ratingsInsight({}), {
      total: 0,
      average: null,
      distribution: { '1': b(0, 0), '2': b(0, 0), '3': b(0, 0), '4': b(0, 0), '5': b(0, 0) },
    });
  });

  it('computes the average to 2 decimals and the distribution', () => {
    assert.deepEqual(ratingsInsight({ 5: 1, 4: 1, 3: 1 }), ratingsInsight({ '3': 1, '4': 1, '5': 1 }), 'numeric keys work too');
    assert.deepEqual(ratingsInsight({ '4': 2, '5': 1 }), {
      total: 3,
      average: 4.33, // 13 / 3 = 4.333…
      distribution: { '1': b(0, 0), '2': b(0, 0), '3': b(0, 0), '4': b(2, 67), '5': b(1, 33) },
    });
  });

  it('rounds the average half-up', () => {
    // (1×1 + 2×7) / 8 = 1.875 → 1.88
    assert.equal(ratingsInsight({ 1: 1, 2: 7 }).average, 1.88);
    // (1 + 5 + 5 + 5) / 4 = 4 exactly
    assert.equal(ratingsInsight({ 1: 1, 5: 3 }).average, 4);
    // (1×2 + 2×1) / 3 = 1.333… → 1.33
    assert.equal(ratingsInsight({ 1: 2, 2: 1 }).average, 1.33);
    // (5×2 + 4×1)/3 = 4.666 → 4.67
    assert.equal(ratingsInsight({ 5: 2, 4: 1 }).average, 4.67);
  });

  it('keeps the distribution keys "1".."5" in order', () => {
    assert.deepEqual(Object.keys(ratingsInsight({ 3: 1 }).distribution), ['1', '2', '3', '4', '5']);
  });

  it('builds counts from rating rows', () => {
    assert.deepEqual(
      ratingCountsFromRows([
        { rating: 5, count: 2 },
        { rating: 1, count: 1 },
      ]),
      { '1': 1, '2': 0, '3': 0, '4': 0, '5': 2 },
    );
    assert.throws(() => ratingCountsFromRows([{ rating: 6, count: 1 }]), RangeError);
    assert.throws(() => ratingCountsFromRows([{ rating: 0, count: 1 }]), RangeError);
  });
});

describe('passFailInsight', () => {
  it('splits graded completions', () => {
    assert.deepEqual(passFailInsight({ passed: 7, failed: 1 }), { total: 8, passed: b(7, 88), failed: b(1, 13) });
  });
  it('is all zeros with nothing graded', () => {
    assert.deepEqual(passFailInsight({}), { total: 0, passed: b(0, 0), failed: b(0, 0) });
  });
});
