import type { InsertObject, Kysely } from 'kysely';
import type { Database } from '../schema.ts';

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
