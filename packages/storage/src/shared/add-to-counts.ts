import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/**
 * The tables of counts `n` per combination of their other columns, kept per write
 * (docs/scaling.md, "Counts kept per write").
 */
type CountTable =
  | 'assignment_stats'
  | 'assignment_totals'
  | 'assignment_due_totals'
  | 'assignment_created_totals'
  | 'event_seat_counts'
  | 'user_assignment_counts';

/**
 * Adds each entry's `by` to the count of its combination in `table`, starting those it has none of
 * yet, in one statement. One statement may change a row only once: the entries' combinations must
 * differ.
 */
export async function addToCounts(
  db: Kysely<Database>,
  table: CountTable,
  entries: Array<Record<string, string | number>>,
  by: number[],
): Promise<void> {
  await countsAdded(db, table, entries, by)?.execute();
}

/** addToCounts' statement, not yet run (undefined for no entries): for writeTogether. */
export function countsAdded(db: Kysely<Database>, table: CountTable, entries: Array<Record<string, string | number>>, by: number[]) {
  if (entries.length === 0) return undefined;
  return db
    .insertInto(table)
    .values(entries.map((combination, i) => ({ ...combination, n: by[i] })) as never)
    .onConflict((oc) =>
      oc.columns(Object.keys(entries[0]!) as never).doUpdateSet({ n: sql`${sql.ref(`${table}.n`)} + excluded.n` } as never),
    );
}
