/**
 * A batch of new rows in one statement on PostgreSQL: the rows go as one JSON parameter, which
 * `json_populate_recordset` reads as rows of the table's own type (each value through its
 * column type's input, as COPY would), into one `INSERT … SELECT` that takes the same ON CONFLICT
 * clause and RETURNING as the multi-row INSERT it replaces (shared/insert-row.ts), so the rows
 * written, the ones a conflict leaves out and the ids answered are the same.
 *
 * One round trip a batch, where a staging table took three (create-if-missing and empty it, COPY,
 * INSERT … SELECT), and emptying it (TRUNCATE) cost 1.5–2.5 ms of its own; the JSON text is built
 * natively, where a multi-row INSERT's thousands of parameters are compiled and bound one by one.
 */
import { sql, type Kysely, type OnConflictBuilder, type OnConflictDoNothingBuilder, type RawBuilder } from 'kysely';
import type { Database } from '../schema.ts';

/**
 * `values` (objects with the same keys) as the rows of an `INSERT … SELECT` into `table`: the
 * columns the first row gives, and the SELECT reading them from one JSON parameter.
 */
export function jsonRows<T extends keyof Database & string>(
  table: T,
  values: ReadonlyArray<Readonly<Record<string, unknown>>>,
): { columns: string[]; rows: RawBuilder<unknown> } {
  // as kysely does, a key whose value is undefined is no column at all (the row takes its default)
  const columns = Object.keys(values[0]!).filter((column) => values[0]![column] !== undefined);
  const source = sql`json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(values)}::json)`;
  return { columns, rows: sql`select ${sql.join(columns.map((column) => sql.ref(column)))} from ${source}` };
}

export async function jsonInsert<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  values: ReadonlyArray<Readonly<Record<string, unknown>> & { public_id: string }>,
  skipping?: (conflict: OnConflictBuilder<Database, T>) => OnConflictDoNothingBuilder<Database, T>,
): Promise<Array<{ id: number; public_id: string }>> {
  const { columns, rows } = jsonRows(table, values);
  let insert = db
    .insertInto(table)
    .columns(columns as never)
    .expression(rows as never);
  if (skipping) insert = insert.onConflict(skipping as never);
  return (await insert.returning(['id', 'public_id'] as never).execute()) as unknown as Array<{ id: number; public_id: string }>;
}
