/**
 * What each assignment contributes to the counts the insights and content lists read, so they are
 * kept per write instead of counted per request. Storage is handed the deltas of a write and adds
 * them; the rules of what counts live here.
 *
 * Two sets of counts: per content item and combination of the facts below (the insights group by
 * them), and per content item alone (total, completed, and the ratings its list shows).
 */
import type { AssignmentState } from '../assignments/assignment-machine.ts';

/** The facts of one live assignment the counts depend on; a deleted assignment has none. */
export interface CountedFacts {
  contentId: number;
  state: AssignmentState;
  /** 0 when not rated */
  rating: number;
  /** 1 passed, 0 failed, 2 not reported */
  success: 0 | 1 | 2;
  /** 1 when feedback text was left */
  reviewed: 0 | 1;
}

/** The stored columns the facts come from. */
export interface CountedColumns {
  contentId: number;
  state: AssignmentState;
  feedbackRating: number | null;
  isSuccess: boolean | null;
  feedbackText: string | null;
  deleted: boolean;
}

export function countedFacts(columns: CountedColumns): CountedFacts | null {
  if (columns.deleted) return null;
  return {
    contentId: columns.contentId,
    state: columns.state,
    rating: columns.feedbackRating ?? 0,
    success: columns.isSuccess === null ? 2 : columns.isSuccess ? 1 : 0,
    reviewed: columns.feedbackText ? 1 : 0,
  };
}

/** A content item's own counters. */
export interface ContentCounters {
  total: number;
  completed: number;
  ratingSum: number;
  ratingCount: number;
}

/** What one live assignment adds to its content item's counters; dropped ones rate nothing. */
export function contentContribution(facts: CountedFacts): ContentCounters {
  const rated = facts.rating > 0 && facts.state !== 'dropped';
  return { total: 1, completed: facts.state === 'completed' ? 1 : 0, ratingSum: rated ? facts.rating : 0, ratingCount: rated ? 1 : 0 };
}

export interface CounterDeltas {
  /** one combination's count up or down by one */
  stats: Array<{ facts: CountedFacts; by: 1 | -1 }>;
  /** the change to a content item's counters; items whose counters do not change are absent */
  content: Array<{ contentId: number } & ContentCounters>;
}

const sameFacts = (a: CountedFacts | null, b: CountedFacts | null) =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.contentId === b.contentId &&
    a.state === b.state &&
    a.rating === b.rating &&
    a.success === b.success &&
    a.reviewed === b.reviewed);

/** What a write that turns `before` into `after` (null: absent or deleted) changes in the counts. */
export function counterDeltas(before: CountedFacts | null, after: CountedFacts | null): CounterDeltas {
  const deltas: CounterDeltas = { stats: [], content: [] };
  if (sameFacts(before, after)) return deltas;
  if (before) deltas.stats.push({ facts: before, by: -1 });
  if (after) deltas.stats.push({ facts: after, by: 1 });
  const contentIds = new Set([before?.contentId, after?.contentId].filter((id): id is number => id !== undefined));
  for (const contentId of contentIds) {
    const minus = before && before.contentId === contentId ? contentContribution(before) : null;
    const plus = after && after.contentId === contentId ? contentContribution(after) : null;
    const delta = (field: keyof ContentCounters) => (plus?.[field] ?? 0) - (minus?.[field] ?? 0);
    const change = {
      total: delta('total'),
      completed: delta('completed'),
      ratingSum: delta('ratingSum'),
      ratingCount: delta('ratingCount'),
    };
    if (Object.values(change).some((value) => value !== 0)) deltas.content.push({ contentId, ...change });
  }
  return deltas;
}
