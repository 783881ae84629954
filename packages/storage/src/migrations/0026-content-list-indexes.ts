import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.ts';

/**
 * Two indexes for a content item's assignments filtered further, on PostgreSQL only
 * (docs/scaling.md, "Lists and reports at a million assignments, side by side"):
 * - by state in creation order: the page `content_item` + `state` becomes one range of the index,
 *   whatever the state, so the plan PostgreSQL keeps for the named statement (costed for an average
 *   state) costs what the plan for the actual state does. Through `content_created` the estimate
 *   for a state bound as a parameter made the kept plan look dearer than planning each request
 *   again, which PostgreSQL then did on every request (about as long as running the page);
 * - the item's outstanding assignments by due date: the total of `content_item` + `is_overdue`
 *   counts those entries alone instead of reading each of the item's rows from the table.
 * SQLite reads a content item's lists through the index the list names (`content_created`) and
 * counts the item's thousand rows in well under a millisecond; it would only pay the writes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create index assignments_content_state_created_idx on assignments (content_id, state, created)
    where deleted_at is null`.execute(db);
  await sql`create index assignments_content_overdue_idx on assignments (content_id, due_date)
    where deleted_at is null and state in ('not_started', 'in_progress')`.execute(db);
}
