/**
 * Keeps the per-write counts of assignments (core: insights/assignment-counters.ts decides what
 * each write changes; this applies it): each combination of counted facts per content item
 * (`assignment_stats`) and per content type (`assignment_totals`), the counters on each content
 * item, the outstanding assignments per content type, state and due date (`assignment_due_totals`),
 * the live assignments per day of creation and state (`assignment_created_totals`), and each user's
 * live assignments (`user_assignment_counts`).
 */
import { sql, type Kysely } from 'kysely';
import {
  countedFacts,
  counterDeltas,
  outstandingStates,
  type AssignmentState,
  type CountedFacts,
  type CounterDeltas,
} from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { countsAdded } from '../shared/add-to-counts.ts';
import { writeTogether } from '../shared/write-together.ts';
import { toBool } from '../listing/list-builder.ts';

/** The stored columns the counted facts come from, as the row has them. */
export interface CountedRow {
  user_id: number;
  content_id: number;
  content_type: string;
  state: string;
  feedback_rating: number | null;
  is_success: number | null;
  feedback_text: string | null;
  due_date: string | null;
  created: string;
  deleted_at: string | null;
}

export const countedRowOf = (db: Kysely<Database>, id: number): Promise<CountedRow | undefined> =>
  db
    .selectFrom('assignments as a')
    .innerJoin('content_items as c', 'c.id', 'a.content_id')
    .select([
      'a.user_id',
      'a.content_id',
      'c.content_type',
      'a.state',
      'a.feedback_rating',
      'a.is_success',
      'a.feedback_text',
      'a.due_date',
      'a.created',
      'a.deleted_at',
    ])
    .where('a.id', '=', id)
    .executeTakeFirst();

/** The types of the content items new assignments are counted under. */
export async function contentTypesOf(db: Kysely<Database>, contentIds: readonly number[]): Promise<Map<number, string>> {
  if (contentIds.length === 0) return new Map();
  const rows = await db.selectFrom('content_items').select(['id', 'content_type']).where('id', 'in', contentIds).execute();
  return new Map(rows.map((row) => [row.id, row.content_type]));
}

export const factsOf = (row: CountedRow): CountedFacts | null =>
  countedFacts({
    userId: row.user_id,
    contentId: row.content_id,
    contentType: row.content_type,
    state: row.state as AssignmentState,
    feedbackRating: row.feedback_rating,
    isSuccess: row.is_success === null ? null : toBool(row.is_success),
    feedbackText: row.feedback_text,
    dueDate: row.due_date,
    created: row.created,
    deleted: row.deleted_at !== null,
  });

/** Applies what a write that turned `before` into `after` changes in the counts. */
export const applyCounts = (db: Kysely<Database>, before: CountedFacts | null, after: CountedFacts | null): Promise<void> =>
  applyCounterDeltas(db, counterDeltas(before, after));

/**
 * Applies counter deltas (one write's, or many writes' merged with core's mergeCounterDeltas) with
 * one write per table of counts, and one per distinct change to content items: on PostgreSQL all
 * of them as one statement (shared/write-together.ts).
 */
export async function applyCounterDeltas(db: Kysely<Database>, deltas: CounterDeltas): Promise<void> {
  const byType = new Map<string, { combination: Record<string, string | number>; by: number }>();
  for (const { facts, by } of deltas.stats) {
    const { state, rating, success, reviewed } = facts;
    const key = [facts.contentType, state, rating, success, reviewed].join('|');
    const entry = byType.get(key);
    if (entry) entry.by += by;
    else byType.set(key, { combination: { content_type: facts.contentType, state, rating, success, reviewed }, by });
  }
  const totals = [...byType.values()].filter((entry) => entry.by !== 0);
  // content items that change alike are changed by one statement
  const contentKey = (change: CounterDeltas['content'][number]) =>
    [change.total, change.completed, change.ratingSum, change.ratingCount].join('|');
  const contentUpdates = [...groupBy(deltas.content, contentKey, (change) => change.contentId)].map(([key, contentIds]) => {
    const [total, completed, ratingSum, ratingCount] = key.split('|').map(Number) as [number, number, number, number];
    return db
      .updateTable('content_items')
      .set((eb) => ({
        total_assignments: eb('total_assignments', '+', total),
        completed_assignments_count: eb('completed_assignments_count', '+', completed),
        rating_sum: eb('rating_sum', '+', ratingSum),
        rating_count: eb('rating_count', '+', ratingCount),
      }))
      .where('id', 'in', contentIds);
  });
  const writes = [
    countsAdded(
      db,
      'assignment_stats',
      deltas.stats.map(({ facts: { contentId, state, rating, success, reviewed } }) => ({
        content_id: contentId,
        state,
        rating,
        success,
        reviewed,
      })),
      deltas.stats.map((entry) => entry.by),
    ),
    countsAdded(
      db,
      'assignment_totals',
      totals.map((entry) => entry.combination),
      totals.map((entry) => entry.by),
    ),
    countsAdded(
      db,
      'assignment_due_totals',
      deltas.due.map(({ facts }) => ({ content_type: facts.contentType, state: facts.state, due_date: facts.dueDate })),
      deltas.due.map((entry) => entry.by),
    ),
    countsAdded(
      db,
      'assignment_created_totals',
      deltas.created.map(({ facts }) => ({ created_day: facts.createdDay, state: facts.state })),
      deltas.created.map((entry) => entry.by),
    ),
    // a user's count is a narrow row of its own (migration 0024), not the wide users row: one
    // statement for the whole batch (the deltas name each user once)
    countsAdded(
      db,
      'user_assignment_counts',
      deltas.users.map((change) => ({ user_id: change.userId })),
      deltas.users.map((change) => change.by),
    ),
  ];
  // one statement when no two writes share a row: each table of counts is written once, and each
  // content item must be in one update only (merged deltas name each item once)
  if (new Set(deltas.content.map((change) => change.contentId)).size === deltas.content.length) {
    await writeTogether(db, [...writes, ...contentUpdates]);
  } else {
    await writeTogether(db, writes);
    for (const update of contentUpdates) await update.execute();
  }
}

function groupBy<T>(items: readonly T[], key: (item: T) => string, id: (item: T) => number): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const item of items) {
    const ids = groups.get(key(item));
    if (ids) ids.push(id(item));
    else groups.set(key(item), [id(item)]);
  }
  return groups;
}

/**
 * Computes every kept count from the live rows, replacing what was kept: for data written straight
 * to the tables (a bulk load, the benchmarks' data sets) rather than through the repository.
 */
export async function recountAssignments(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of ['assignment_stats', 'assignment_totals', 'assignment_due_totals', 'assignment_created_totals'] as const)
      await trx.deleteFrom(table).execute();
    await sql`insert into assignment_stats (content_id, state, rating, success, reviewed, n)
      select content_id, state, coalesce(feedback_rating, 0), coalesce(is_success, 2), case when feedback_text <> '' then 1 else 0 end, count(*)
      from assignments where deleted_at is null group by 1, 2, 3, 4, 5`.execute(trx);
    await sql`insert into assignment_totals (content_type, state, rating, success, reviewed, n)
      select c.content_type, s.state, s.rating, s.success, s.reviewed, sum(s.n)
      from assignment_stats s join content_items c on c.id = s.content_id group by 1, 2, 3, 4, 5`.execute(trx);
    await sql`insert into assignment_due_totals (content_type, state, due_date, n)
      select c.content_type, a.state, a.due_date, count(*) from assignments a join content_items c on c.id = a.content_id
      where a.deleted_at is null and a.due_date is not null and a.state in (${sql.join([...outstandingStates])}) group by 1, 2, 3`.execute(
      trx,
    );
    await sql`insert into assignment_created_totals (created_day, state, n)
      select substr(created, 1, 10), state, count(*) from assignments where deleted_at is null group by 1, 2`.execute(trx);
    await trx.deleteFrom('user_assignment_counts').execute();
    await sql`insert into user_assignment_counts (user_id, n)
      select user_id, count(*) from assignments where deleted_at is null group by user_id`.execute(trx);
    await sql`update content_items set
      total_assignments = (select count(*) from assignments a where a.deleted_at is null and a.content_id = content_items.id),
      completed_assignments_count = (select count(*) from assignments a where a.deleted_at is null and a.content_id = content_items.id and a.state = 'completed'),
      rating_sum = (select coalesce(sum(feedback_rating), 0) from assignments a where a.deleted_at is null and a.content_id = content_items.id and a.state <> 'dropped'),
      rating_count = (select count(feedback_rating) from assignments a where a.deleted_at is null and a.content_id = content_items.id and a.state <> 'dropped')`.execute(
      trx,
    );
  });
}
