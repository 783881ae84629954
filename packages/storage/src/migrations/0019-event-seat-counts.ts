import { sql, type Kysely } from 'kysely';
import { createCountTable } from './count-table.ts';

/**
 * Seats kept per write (docs/scaling.md, "Counts kept per write"): the enrolled and waitlisted
 * enrollments of each event and attendance method. Deciding a seat, and reading an event, then
 * reads two rows instead of counting the event's enrollments; an import's batch of a few hundred
 * events no longer counts every enrollment it has written so far. Dropped enrollments hold no
 * seat and are not kept. Starts from the enrollments there are, counted in the migration's
 * transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createCountTable(db, 'event_seat_counts', { event_id: 'integer', attendance_method: 'text', status: 'text' });
  await sql`insert into event_seat_counts (event_id, attendance_method, status, n)
    select event_id, attendance_method, status, count(*) from enrollments
    where status in ('enrolled', 'waitlisted')
    group by event_id, attendance_method, status`.execute(db);
}
