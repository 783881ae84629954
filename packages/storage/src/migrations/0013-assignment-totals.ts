import { sql, type Kysely } from 'kysely';
import { createCountTable } from './count-table.ts';

/**
 * Totals kept per write, so that lists and insights over all assignments add up a few hundred rows
 * instead of counting a million (docs/scaling.md, "Counts kept per write"):
 * - `assignment_totals`: `assignment_stats` per content type instead of per content item, for the
 *   totals of every state and content type filter and the insights over all rows;
 * - `assignment_due_totals`: outstanding assignments with a due date, per content type, state and
 *   day, from which the overdue totals of any day follow;
 * - `users.live_assignments`: each user's live assignments, so a report on the user's fields alone
 *   adds up the matching users instead of joining every assignment.
 * All start from the live assignments, counted here in the migration's transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createCountTable(db, 'assignment_totals', {
    content_type: 'text',
    state: 'text',
    rating: 'integer',
    success: 'integer',
    reviewed: 'integer',
  });
  await createCountTable(db, 'assignment_due_totals', { content_type: 'text', state: 'text', due_date: 'text' });

  await sql`insert into assignment_totals (content_type, state, rating, success, reviewed, n)
    select c.content_type, s.state, s.rating, s.success, s.reviewed, sum(s.n)
    from assignment_stats s join content_items c on c.id = s.content_id
    group by c.content_type, s.state, s.rating, s.success, s.reviewed`.execute(db);
  await sql`insert into assignment_due_totals (content_type, state, due_date, n)
    select c.content_type, a.state, a.due_date, count(*)
    from assignments a join content_items c on c.id = a.content_id
    where a.deleted_at is null and a.due_date is not null and a.state in ('not_started', 'in_progress')
    group by c.content_type, a.state, a.due_date`.execute(db);
  await db.schema
    .alterTable('users')
    .addColumn('live_assignments', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await sql`update users set live_assignments = (select count(*) from assignments a where a.user_id = users.id and a.deleted_at is null)`.execute(
    db,
  );
}
