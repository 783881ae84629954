/**
 * Keeps the per-write counts of assignments (core: insights/assignment-counters.ts decides what
 * each write changes; this applies it): each combination of counted facts per content item
 * (`assignment_stats`) and per content type (`assignment_totals`), the counters on each content
 * item, the outstanding assignments per content type, state and due date (`assignment_due_totals`),
 * and each user's live assignments (`users.live_assignments`).
 */
import { sql, type Kysely } from 'kysely';
import { countedFacts, counterDeltas, outstandingStates, type AssignmentState, type CountedFacts } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { toBool } from '../shared/list-builder.ts';

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
      'a.deleted_at',
    ])
    .where('a.id', '=', id)
    .executeTakeFirst();

/** The type of the content item a new assignment is counted under. */
export const contentTypeOf = async (db: Kysely<Database>, contentId: number): Promise<string> =>
  (await db.selectFrom('content_items').select('content_type').where('id', '=', contentId).executeTakeFirstOrThrow()).content_type;

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
    deleted: row.deleted_at !== null,
  });

/** The tables of counts `n` per combination of their other columns. */
type CountTable = 'assignment_stats' | 'assignment_totals' | 'assignment_due_totals';

/** Adds `by` to the count of `combination` in `table`, starting it at `by` when it has none yet. */
async function addToCount(db: Kysely<Database>, table: CountTable, combination: Record<string, string | number>, by: number) {
  await db
    .insertInto(table)
    .values({ ...combination, n: by } as never)
    .onConflict((oc) => oc.columns(Object.keys(combination) as never).doUpdateSet({ n: sql`${sql.ref(`${table}.n`)} + ${by}` } as never))
    .execute();
}

/** Applies what a write that turned `before` into `after` changes in the counts. */
export async function applyCounts(db: Kysely<Database>, before: CountedFacts | null, after: CountedFacts | null): Promise<void> {
  const deltas = counterDeltas(before, after);
  for (const { facts, by } of deltas.stats) {
    const { state, rating, success, reviewed } = facts;
    await addToCount(db, 'assignment_stats', { content_id: facts.contentId, state, rating, success, reviewed }, by);
    await addToCount(db, 'assignment_totals', { content_type: facts.contentType, state, rating, success, reviewed }, by);
  }
  for (const { facts, by } of deltas.due) {
    await addToCount(db, 'assignment_due_totals', { content_type: facts.contentType, state: facts.state, due_date: facts.dueDate }, by);
  }
  for (const { userId, by } of deltas.users) {
    await db
      .updateTable('users')
      .set((eb) => ({ live_assignments: eb('live_assignments', '+', by) }))
      .where('id', '=', userId)
      .execute();
  }
  for (const change of deltas.content) {
    await db
      .updateTable('content_items')
      .set((eb) => ({
        total_assignments: eb('total_assignments', '+', change.total),
        completed_assignments_count: eb('completed_assignments_count', '+', change.completed),
        rating_sum: eb('rating_sum', '+', change.ratingSum),
        rating_count: eb('rating_count', '+', change.ratingCount),
      }))
      .where('id', '=', change.contentId)
      .execute();
  }
}

/**
 * Computes every kept count from the live rows, replacing what was kept: for data written straight
 * to the tables (a bulk load, the benchmarks' data sets) rather than through the repository.
 */
export async function recountAssignments(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of ['assignment_stats', 'assignment_totals', 'assignment_due_totals'] as const) await trx.deleteFrom(table).execute();
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
    await sql`update users set
      live_assignments = (select count(*) from assignments a where a.user_id = users.id and a.deleted_at is null)`.execute(trx);
    await sql`update content_items set
      total_assignments = (select count(*) from assignments a where a.deleted_at is null and a.content_id = content_items.id),
      completed_assignments_count = (select count(*) from assignments a where a.deleted_at is null and a.content_id = content_items.id and a.state = 'completed'),
      rating_sum = (select coalesce(sum(feedback_rating), 0) from assignments a where a.deleted_at is null and a.content_id = content_items.id and a.state <> 'dropped'),
      rating_count = (select count(feedback_rating) from assignments a where a.deleted_at is null and a.content_id = content_items.id and a.state <> 'dropped')`.execute(
      trx,
    );
  });
}
