/**
 * What each assignment contributes to the counts the insights and lists read, so they are kept per
 * write instead of counted per request. Storage is handed the deltas of a write and adds them; the
 * rules of what counts live here.
 *
 * Five sets of counts:
 * - per combination of the facts below (`stats`), which storage keeps twice: per content item and
 *   per content type, so the insights and the list totals over all rows add up a few hundred rows;
 * - per content item alone (total, completed, and the ratings its list shows);
 * - outstanding assignments per content type, state and due date (`due`), from which the overdue
 *   totals of any day follow, since overdue is "outstanding and due before today";
 * - live assignments per user (`users`), so a report on the user's fields alone is counted by
 *   adding up the matching users' totals;
 * - live assignments per day of creation and state (`created`), from which a creation range's
 *   total follows: the whole days inside it added up, the rows of its end days counted.
 */
import { isOutstanding, type AssignmentState } from '../assignments/assignment-machine.ts';

/** The facts of one live assignment the counts depend on; a deleted assignment has none. */
export interface CountedFacts {
  userId: number;
  contentId: number;
  /** a content item's type never changes, so the counts may be kept per type */
  contentType: string;
  state: AssignmentState;
  /** 0 when not rated */
  rating: number;
  /** 1 passed, 0 failed, 2 not reported */
  success: 0 | 1 | 2;
  /** 1 when feedback text was left */
  reviewed: 0 | 1;
  /** YYYY-MM-DD, or null when there is none */
  dueDate: string | null;
  /** the day the assignment was created, as the first ten characters of its stored `created` */
  createdDay: string;
}

/** The stored columns the facts come from. */
export interface CountedColumns {
  userId: number;
  contentId: number;
  contentType: string;
  state: AssignmentState;
  feedbackRating: number | null;
  isSuccess: boolean | null;
  feedbackText: string | null;
  dueDate: string | null;
  created: string;
  deleted: boolean;
}

export function countedFacts(columns: CountedColumns): CountedFacts | null {
  if (columns.deleted) return null;
  return {
    userId: columns.userId,
    contentId: columns.contentId,
    contentType: columns.contentType,
    state: columns.state,
    rating: columns.feedbackRating ?? 0,
    success: columns.isSuccess === null ? 2 : columns.isSuccess ? 1 : 0,
    reviewed: columns.feedbackText ? 1 : 0,
    dueDate: columns.dueDate,
    createdDay: createdDayOf(columns.created),
  };
}

/**
 * The day a stored `created` text falls on: its first ten characters. A range's bound compared
 * with `created` as text compares its own first ten characters first, so every row of a day
 * before the bound's is below it and every row of a later day above it.
 */
export const createdDayOf = (created: string): string => created.slice(0, 10);

/** A live assignment's day of creation and state: what a creation range's totals are kept per. */
export interface CreatedFacts {
  createdDay: string;
  state: AssignmentState;
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

/** An outstanding assignment with a due date: what the overdue totals of every day are counted from. */
export interface DueFacts {
  contentType: string;
  state: AssignmentState;
  dueDate: string;
}

export const dueFacts = (facts: CountedFacts | null): DueFacts | null =>
  facts && facts.dueDate !== null && isOutstanding(facts.state)
    ? { contentType: facts.contentType, state: facts.state, dueDate: facts.dueDate }
    : null;

export interface CounterDeltas {
  /** one combination's count up or down (by one, for a single write) */
  stats: Array<{ facts: CountedFacts; by: number }>;
  /** the change to a content item's counters; items whose counters do not change are absent */
  content: Array<{ contentId: number } & ContentCounters>;
  /** one (content type, state, due date) count of outstanding assignments up or down */
  due: Array<{ facts: DueFacts; by: number }>;
  /** a user's count of live assignments up or down */
  users: Array<{ userId: number; by: number }>;
  /** one (day of creation, state) count of live assignments up or down */
  created: Array<{ facts: CreatedFacts; by: number }>;
}

const sameStats = (a: CountedFacts | null, b: CountedFacts | null) =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.contentId === b.contentId &&
    a.state === b.state &&
    a.rating === b.rating &&
    a.success === b.success &&
    a.reviewed === b.reviewed);

const sameDue = (a: DueFacts | null, b: DueFacts | null) =>
  a === b || (a !== null && b !== null && a.contentType === b.contentType && a.state === b.state && a.dueDate === b.dueDate);

const createdFacts = (facts: CountedFacts): CreatedFacts => ({ createdDay: facts.createdDay, state: facts.state });

/** What a write that turns `before` into `after` (null: absent or deleted) changes in the counts. */
export function counterDeltas(before: CountedFacts | null, after: CountedFacts | null): CounterDeltas {
  const deltas: CounterDeltas = { stats: [], content: [], due: [], users: [], created: [] };
  if (before?.userId !== after?.userId) {
    if (before) deltas.users.push({ userId: before.userId, by: -1 });
    if (after) deltas.users.push({ userId: after.userId, by: 1 });
  }
  if (before?.createdDay !== after?.createdDay || before?.state !== after?.state) {
    if (before) deltas.created.push({ facts: createdFacts(before), by: -1 });
    if (after) deltas.created.push({ facts: createdFacts(after), by: 1 });
  }
  const [dueBefore, dueAfter] = [dueFacts(before), dueFacts(after)];
  if (!sameDue(dueBefore, dueAfter)) {
    if (dueBefore) deltas.due.push({ facts: dueBefore, by: -1 });
    if (dueAfter) deltas.due.push({ facts: dueAfter, by: 1 });
  }
  if (sameStats(before, after)) return deltas;
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

/**
 * The deltas of many writes as one: each combination, content item and user once, with the sum of
 * its changes, and none whose changes cancel out. Storage applies a batch of writes (an import's
 * rows) with one statement per table this way.
 */
export function mergeCounterDeltas(all: readonly CounterDeltas[]): CounterDeltas {
  const stats = new Map<string, { facts: CountedFacts; by: number }>();
  const due = new Map<string, { facts: DueFacts; by: number }>();
  const created = new Map<string, { facts: CreatedFacts; by: number }>();
  const users = new Map<number, number>();
  const content = new Map<number, { contentId: number } & ContentCounters>();
  const add = <F>(into: Map<string, { facts: F; by: number }>, key: string, facts: F, by: number) => {
    const entry = into.get(key);
    if (entry) entry.by += by;
    else into.set(key, { facts, by });
  };
  for (const deltas of all) {
    for (const { facts, by } of deltas.stats)
      add(stats, [facts.contentId, facts.state, facts.rating, facts.success, facts.reviewed].join('|'), facts, by);
    for (const { facts, by } of deltas.due) add(due, [facts.contentType, facts.state, facts.dueDate].join('|'), facts, by);
    for (const { facts, by } of deltas.created) add(created, `${facts.createdDay}|${facts.state}`, facts, by);
    for (const { userId, by } of deltas.users) users.set(userId, (users.get(userId) ?? 0) + by);
    for (const change of deltas.content) {
      const sum = content.get(change.contentId) ?? { contentId: change.contentId, total: 0, completed: 0, ratingSum: 0, ratingCount: 0 };
      sum.total += change.total;
      sum.completed += change.completed;
      sum.ratingSum += change.ratingSum;
      sum.ratingCount += change.ratingCount;
      content.set(change.contentId, sum);
    }
  }
  return {
    stats: [...stats.values()].filter((entry) => entry.by !== 0),
    content: [...content.values()].filter((sum) => sum.total !== 0 || sum.completed !== 0 || sum.ratingSum !== 0 || sum.ratingCount !== 0),
    due: [...due.values()].filter((entry) => entry.by !== 0),
    users: [...users].filter(([, by]) => by !== 0).map(([userId, by]) => ({ userId, by })),
    created: [...created.values()].filter((entry) => entry.by !== 0),
  };
}
