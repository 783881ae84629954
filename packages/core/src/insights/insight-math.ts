/**
 * The arithmetic and response shapes of the assignment insights (spec "Insight shapes",
 * docs/assignments.md). The store aggregates (counts per state, per rating, …); these builders turn the
 * counts into the exact bodies, so every route rounds the same way.
 *
 * Decisions where the specification is silent:
 * - Rounding is done on integers (half-up, never floating point), so 1/8 is exactly 13 and 2/3 is 67.
 * - overdue: `total` is the number of overdue assignments and each percentage is that state's
 *   share of them ("overdue count, split by not_started and in_progress").
 * - ratings: `total` is the number of ratings; `average` is rounded half-up to 2 decimals and is
 *   null when there are none. pass-fail: `total` is passed + failed.
 * - Count inputs may omit keys (a GROUP BY yields only the groups present); missing counts are 0,
 *   and every bucket is always present in the output.
 */
import type { AssignmentState } from '../assignments/assignment-machine.ts';

export interface Bucket {
  count: number;
  percentage: number;
}

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer (got ${value}).`);
}

/** numerator / denominator rounded half-up to an integer, exactly (both non-negative integers). */
function divideHalfUp(numerator: number, denominator: number): number {
  const quotient = Math.floor(numerator / denominator);
  const remainder = numerator - quotient * denominator;
  return 2 * remainder >= denominator ? quotient + 1 : quotient;
}

/** count/total × 100 as a whole integer rounded half-up; 0 when total is 0. */
export function percentage(count: number, total: number): number {
  assertCount('count', count);
  assertCount('total', total);
  if (total === 0) return 0;
  return divideHalfUp(count * 100, total);
}

const bucket = (count: number, total: number): Bucket => ({ count, percentage: percentage(count, total) });

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

function counts<K extends string>(keys: readonly K[], input: Partial<Record<K, number>>): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const key of keys) {
    const value = input[key] ?? 0;
    assertCount(key, value);
    out[key] = value;
  }
  return out;
}

/** Each key's count as a bucket of the total over all the keys (total first, then the keys in their order). */
function shares<K extends string>(keys: readonly K[], input: Partial<Record<K, number>>): { total: number } & Record<K, Bucket> {
  const c = counts(keys, input);
  const total = sum(keys.map((key) => c[key]));
  const buckets = {} as Record<K, Bucket>;
  for (const key of keys) buckets[key] = bucket(c[key], total);
  return { total, ...buckets };
}

// The order the buckets appear in the body: the spec's own listing.
const COMPLETION_BUCKETS = ['completed', 'in_progress', 'not_started', 'dropped', 'exempted'] as const satisfies readonly AssignmentState[];

export type CompletionInsight = { total: number } & Record<AssignmentState, Bucket>;

/** GET /insights/assignments/completion/: total over all five states (dropped included). */
export function completionInsight(byState: Partial<Record<AssignmentState, number>>): CompletionInsight {
  return shares(COMPLETION_BUCKETS, byState);
}

export interface OverdueInsight {
  total: number;
  not_started: Bucket;
  in_progress: Bucket;
}

/** GET /insights/assignments/overdue/ from the overdue counts per outstanding state. */
export function overdueInsight(overdue: Partial<Record<'not_started' | 'in_progress', number>>): OverdueInsight {
  return shares(['not_started', 'in_progress'] as const, overdue);
}

export interface FeedbackInsight {
  ratings_count: number;
  reviews_count: number;
}

/** GET /insights/assignments/feedback/: a review is a non-empty `feedback_text` (counted by the store). */
export function feedbackInsight(input: Partial<FeedbackInsight>): FeedbackInsight {
  return counts(['ratings_count', 'reviews_count'] as const, input);
}

export const ratingValues = ['1', '2', '3', '4', '5'] as const;
export type RatingValue = (typeof ratingValues)[number];

export interface RatingsInsight {
  total: number;
  average: number | null;
  distribution: Record<RatingValue, Bucket>;
}

/** GET /insights/assignments/ratings/ from the number of ratings of each star value. */
export function ratingsInsight(byRating: Partial<Record<RatingValue | 1 | 2 | 3 | 4 | 5, number>>): RatingsInsight {
  // numeric and string keys name the same property; normalise through the string form
  const { total, ...distribution } = shares(ratingValues, byRating as Partial<Record<RatingValue, number>>);
  const stars = sum(ratingValues.map((value) => Number(value) * distribution[value].count));
  return {
    total,
    average: total === 0 ? null : divideHalfUp(stars * 100, total) / 100,
    distribution,
  };
}

/** Convenience for stores that return one row per rating: `[{ rating: 4, count: 12 }, …]`. */
export function ratingCountsFromRows(rows: ReadonlyArray<{ rating: number; count: number }>): Record<RatingValue, number> {
  const out = counts(ratingValues, {});
  for (const row of rows) {
    const key = String(row.rating) as RatingValue;
    if (!ratingValues.includes(key)) throw new RangeError(`A rating is 1 to 5 (got ${row.rating}).`);
    assertCount(`rating ${key}`, row.count);
    out[key] += row.count;
  }
  return out;
}

export interface PassFailInsight {
  total: number;
  passed: Bucket;
  failed: Bucket;
}

/** GET /insights/assignments/pass-fail/ over completed assignments whose `is_success` is not null. */
export function passFailInsight(input: Partial<Record<'passed' | 'failed', number>>): PassFailInsight {
  return shares(['passed', 'failed'] as const, input);
}
