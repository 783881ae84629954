/**
 * A batch of new rows through a staging table on PostgreSQL: COPY into a temporary copy of the
 * table's columns, then one `INSERT … SELECT` that takes the same ON CONFLICT clause and RETURNING
 * as the multi-row INSERT it replaces (shared/insert-row.ts), so the rows written, the ones a
 * conflict leaves out and the ids answered are the same.
 *
 * The staging table is the connection's own (TEMPORARY), made once per connection (again after a
 * rolled-back savepoint took it away) with no constraints, and emptied before each batch; TRUNCATE
 * rather than DELETE, since autovacuum never cleans a temporary table's dead rows.
 */
import { sql, type Kysely, type OnConflictBuilder, type OnConflictDoNothingBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import { copyRows } from './copy-in.ts';

export async function stagedInsert<T extends keyof Database & string>(
  db: Kysely<Database>,
  table: T,
  values: ReadonlyArray<Readonly<Record<string, unknown>> & { public_id: string }>,
  skipping?: (conflict: OnConflictBuilder<Database, T>) => OnConflictDoNothingBuilder<Database, T>,
): Promise<Array<{ id: number; public_id: string }>> {
  const stage = `lectern_stage_${table}`;
  await sql.raw(`create temp table if not exists ${stage} as select * from ${table} with no data; truncate ${stage}`).execute(db);
  await copyRows(db as Kysely<unknown>, stage, values);
  const columns = Object.keys(values[0]!).filter((column) => values[0]![column] !== undefined);
  let insert = db
    .insertInto(table)
    .columns(columns as never)
    .expression(sql`select ${sql.join(columns.map((column) => sql.ref(column)))} from ${sql.table(stage)}` as never);
  if (skipping) insert = insert.onConflict(skipping as never);
  return (await insert.returning(['id', 'public_id'] as never).execute()) as unknown as Array<{ id: number; public_id: string }>;
}
