/**
 * The seats kept per write (`event_seat_counts`, migration 0019): enrolled and waitlisted
 * enrollments per event and attendance method. Every write of an enrollment's status goes through
 * the enrollment repository, which applies its change here in the same transaction.
 */
import { sql, type Kysely } from 'kysely';
import { noEnrollments, type EnrollmentCounts } from '@lectern/core';
import type { AttendanceMethod, EnrollmentStatus } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { addToCounts } from '../shared/add-to-counts.ts';

export interface SeatChange {
  eventId: number;
  method: AttendanceMethod;
  status: EnrollmentStatus;
  /** +1 for an enrollment that takes the status, -1 for one that leaves it */
  by: number;
}

const holdsSeat = (status: EnrollmentStatus): status is 'enrolled' | 'waitlisted' => status !== 'dropped';

/** Adds many changes with one statement: those of the same event, method and status are summed first (addToCounts takes each once). */
export async function changeSeatCounts(db: Kysely<Database>, changes: readonly SeatChange[]): Promise<void> {
  const summed = new Map<string, SeatChange>();
  for (const change of changes) {
    if (!holdsSeat(change.status)) continue;
    const key = `${change.eventId}:${change.method}:${change.status}`;
    const entry = summed.get(key);
    if (entry) entry.by += change.by;
    else summed.set(key, { ...change });
  }
  const rows = [...summed.values()].filter((change) => change.by !== 0);
  await addToCounts(
    db,
    'event_seat_counts',
    rows.map((change) => ({ event_id: change.eventId, attendance_method: change.method, status: change.status })),
    rows.map((change) => change.by),
  );
}

/** The counts of each of `eventIds` (none kept reads as zero). */
export async function seatCountsOf(db: Kysely<Database>, eventIds: readonly number[]): Promise<Map<number, EnrollmentCounts>> {
  const counts = new Map<number, EnrollmentCounts>(eventIds.map((id) => [id, noEnrollments()]));
  if (eventIds.length === 0) return counts;
  const rows = await db
    .selectFrom('event_seat_counts')
    .select(['event_id', 'attendance_method', 'status', 'n'])
    .where('event_id', 'in', [...eventIds])
    .execute();
  for (const row of rows) {
    const status = row.status as EnrollmentStatus;
    if (holdsSeat(status)) counts.get(row.event_id)![row.attendance_method as AttendanceMethod][status] = Number(row.n);
  }
  return counts;
}

/**
 * Computes every event's seats from its enrollments, replacing what was kept: for enrollments
 * written straight to the table rather than through the repository.
 */
export async function recountSeats(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('event_seat_counts').execute();
    await sql`insert into event_seat_counts (event_id, attendance_method, status, n)
      select event_id, attendance_method, status, count(*) from enrollments
      where status <> 'dropped' group by event_id, attendance_method, status`.execute(trx);
  });
}
