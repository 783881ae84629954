import { sql, type Kysely } from 'kysely';
import { createCountTable } from './count-table.ts';

/**
 * Live assignments per day of creation and state, kept per write (docs/scaling.md, "Counts kept per
 * write"): a list's `created` range is totalled by adding up the whole days inside it and counting
 * only the rows of the days its bounds fall on, instead of counting every row of the range (52 000
 * index entries for the last 5 % of a million). The day is the first ten characters of the stored
 * `created` text. Starts from the live assignments, counted here in the migration's transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createCountTable(db, 'assignment_created_totals', { created_day: 'text', state: 'text' });
  await sql`insert into assignment_created_totals (created_day, state, n)
    select substr(created, 1, 10), state, count(*) from assignments where deleted_at is null
    group by substr(created, 1, 10), state`.execute(db);
}
