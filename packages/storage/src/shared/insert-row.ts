import type { InsertObject, Kysely, OnConflictBuilder, OnConflictDoNothingBuilder } from 'kysely';
import type { Database } from '../schema.ts';
import { copyRows, sameColumns } from '../postgres/copy-in.ts';
import { jsonInsert } from '../postgres/json-insert.ts';
import { dialectOf } from './dialect.ts';

/** Tables whose rows have an internal integer `id`. */
type TableWithId = { [T in keyof Database]: Database[T] extends { id: unknown } ? T : never }[keyof Database];

/**
 * Inserts one row and answers its internal id: the one way repositories insert. The values are a
 * resource's `toColumns(row)` (columns derived from the declaration) or the table's own columns.
 */
export async function insertRow<T extends TableWithId>(
  db: Kysely<Database>,
  table: T,
  values: InsertObject<Database, T> | Readonly<Record<string, unknown>>,
): Promise<number> {
  const row = await db
    .insertInto(table)
    .values(values as never)
    .returning('id' as never)
    .executeTakeFirstOrThrow();
  return (row as unknown as { id: number }).id;
}

/** Rows a multi-row INSERT takes at most: well under either database's limit of bound values. */
const ROWS_PER_STATEMENT = 500;

/**
 * From this many rows, PostgreSQL takes them by COPY (appendRows) or as one JSON parameter
 * (insertRows, postgres/json-insert.ts): one statement however many rows, where a multi-row INSERT
 * makes the server parse and bind thousands of parameters. Fewer rows (a request's one) keep the
 * single INSERT.
 */
export const COPY_FROM_ROWS = 50;

/** Whether PostgreSQL takes these rows by COPY: enough of them, every one naming the same columns. */
export const takesCopy = (db: Kysely<Database>, values: ReadonlyArray<Readonly<Record<string, unknown>>>): boolean =>
  values.length >= COPY_FROM_ROWS && dialectOf(db).copyIn && sameColumns(values);

/**
 * Inserts many rows whose ids no one needs back (audit entries, notifications): by COPY where
 * `takesCopy`, else a few hundred per INSERT.
 */
export async function appendRows(
  db: Kysely<Database>,
  table: keyof Database & string,
  values: ReadonlyArray<Readonly<Record<string, unknown>>>,
): Promise<void> {
  if (takesCopy(db, values)) return copyRows(db as Kysely<unknown>, table, values);
  for (let start = 0; start < values.length; start += ROWS_PER_STATEMENT) {
    await db
      .insertInto(table)
      .values(values.slice(start, start + ROWS_PER_STATEMENT) as never)
      .execute();
  }
}

/**
 * Inserts many rows of a table with public ids, a few hundred per statement, and answers their
 * internal ids in the order of `values`: a batch's rows (an import's) cost one statement rather
 * than one each. Matched by public id, since neither database promises RETURNING's order. With
 * `skipping`, a unique index's conflict leaves the row out, and its id is undefined.
 */
export async function insertRows<T extends TableWithId>(
  db: Kysely<Database>,
  table: T,
  values: ReadonlyArray<Readonly<Record<string, unknown>> & { public_id: string }>,
  skipping?: (conflict: OnConflictBuilder<Database, T>) => OnConflictDoNothingBuilder<Database, T>,
): Promise<Array<number | undefined>> {
  const ids = new Map<string, number>();
  if (takesCopy(db, values)) {
    for (const row of await jsonInsert(db, table, values, skipping)) ids.set(row.public_id, row.id);
    return values.map((row) => ids.get(row.public_id));
  }
  for (let start = 0; start < values.length; start += ROWS_PER_STATEMENT) {
    let insert = db.insertInto(table).values(values.slice(start, start + ROWS_PER_STATEMENT) as never);
    if (skipping) insert = insert.onConflict(skipping as never);
    const rows = await insert.returning(['id', 'public_id'] as never).execute();
    for (const row of rows as unknown as Array<{ id: number; public_id: string }>) ids.set(row.public_id, row.id);
  }
  return values.map((row) => ids.get(row.public_id));
}
