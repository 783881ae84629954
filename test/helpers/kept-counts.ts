/**
 * Checks the counts kept per write (storage's assignment-counts.ts and enrollments/seat-counts.ts)
 * against a recount of the rows.
 */
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { KyselyStorage } from '@lectern/storage';

export async function assertCountsMatchRecount(storage: KyselyStorage): Promise<void> {
  const content = await sql<{ id: number; total: number; completed: number; rating_sum: number; rating_count: number }>`
    select c.id, c.total_assignments as total, c.completed_assignments_count as completed, c.rating_sum, c.rating_count,
      (select count(*) from assignments a where a.content_id = c.id and a.deleted_at is null) as r_total,
      (select count(*) from assignments a where a.content_id = c.id and a.deleted_at is null and a.state = 'completed') as r_completed,
      (select coalesce(sum(a.feedback_rating), 0) from assignments a where a.content_id = c.id and a.deleted_at is null and a.state <> 'dropped') as r_sum,
      (select count(a.feedback_rating) from assignments a where a.content_id = c.id and a.deleted_at is null and a.state <> 'dropped') as r_count
    from content_items c`.execute(storage.db);
  for (const row of content.rows as any[]) {
    assert.deepEqual([row.total, row.completed, row.rating_sum, row.rating_count], [row.r_total, row.r_completed, row.r_sum, row.r_count]);
  }
  const stats =
    await sql`select content_id, state, rating, success, reviewed, n from assignment_stats where n <> 0 order by 1, 2, 3, 4, 5`.execute(
      storage.db,
    );
  const recount = await sql`
    select content_id, state, coalesce(feedback_rating, 0) as rating, coalesce(is_success, 2) as success,
      case when feedback_text <> '' then 1 else 0 end as reviewed, count(*) as n
    from assignments where deleted_at is null group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`.execute(storage.db);
  assert.deepEqual(stats.rows, recount.rows);
  const totals =
    await sql`select content_type, state, rating, success, reviewed, n from assignment_totals where n <> 0 order by 1, 2, 3, 4, 5`.execute(
      storage.db,
    );
  const totalsRecount = await sql`
    select c.content_type, a.state, coalesce(a.feedback_rating, 0) as rating, coalesce(a.is_success, 2) as success,
      case when a.feedback_text <> '' then 1 else 0 end as reviewed, count(*) as n
    from assignments a join content_items c on c.id = a.content_id where a.deleted_at is null
    group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`.execute(storage.db);
  assert.deepEqual(totals.rows, totalsRecount.rows);
  const due = await sql`select content_type, state, due_date, n from assignment_due_totals where n <> 0 order by 1, 2, 3`.execute(
    storage.db,
  );
  const dueRecount = await sql`
    select c.content_type, a.state, a.due_date, count(*) as n
    from assignments a join content_items c on c.id = a.content_id
    where a.deleted_at is null and a.due_date is not null and a.state in ('not_started', 'in_progress')
    group by 1, 2, 3 order by 1, 2, 3`.execute(storage.db);
  assert.deepEqual(due.rows, dueRecount.rows);
  const created = await sql`select created_day, state, n from assignment_created_totals where n <> 0 order by 1, 2`.execute(storage.db);
  const createdRecount = await sql`
    select substr(created, 1, 10) as created_day, state, count(*) as n from assignments where deleted_at is null
    group by 1, 2 order by 1, 2`.execute(storage.db);
  assert.deepEqual(created.rows, createdRecount.rows, 'live assignments per day of creation and state');
  const users = await sql`
    select u.id, coalesce(k.n, 0) as n from users u left join user_assignment_counts k on k.user_id = u.id
    where coalesce(k.n, 0) <> (select count(*) from assignments a where a.user_id = u.id and a.deleted_at is null)`.execute(storage.db);
  assert.deepEqual(users.rows, [], "each user's live assignments");
  const seats = await sql`
    select event_id, attendance_method, status, n from event_seat_counts where n <> 0 order by 1, 2, 3`.execute(storage.db);
  const seatsRecount = await sql`
    select event_id, attendance_method, status, count(*) as n from enrollments
    where status <> 'dropped' group by 1, 2, 3 order by 1, 2, 3`.execute(storage.db);
  assert.deepEqual(seats.rows, seatsRecount.rows, 'the seats of each event and method');
}
