import { sql, type Kysely } from 'kysely';
import { withoutRowid } from './dialect.ts';

/**
 * Each user's live assignments move out of `users` into a narrow table of their own (docs/scaling.md,
 * "Counts kept per write"). Every assignment write changed the count, and on PostgreSQL an update
 * writes a new version of the whole row: a users row is wide and has thirteen indexes, so an
 * import's batch rewrote all of that for each user it touched. A row of two integers under one key
 * costs a fraction of it. Users without live assignments have no row. Starts from the counts kept
 * so far (exact since migration 0013), then drops the column.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table user_assignment_counts (
    user_id integer not null primary key,
    n integer not null
  )${withoutRowid(db)}`.execute(db);
  await sql`insert into user_assignment_counts (user_id, n)
    select id, live_assignments from users where live_assignments <> 0`.execute(db);
  await sql`alter table users drop column live_assignments`.execute(db);
}
