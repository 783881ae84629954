import { sql, type Kysely, type RawBuilder } from 'kysely';
import { dialectOf } from './dialect.ts';

/**
 * Rows of values as a table for a query to join (`with p(a, b) as (values …)`). A batch's lookups
 * by many keys go through this rather than an OR of conditions, which SQLite answers with a scan:
 * joined to a table of the keys, both databases seek the key's unique index for each row.
 *
 * PostgreSQL needs each value cast to its column's type to know the bound parameters' types.
 * SQLite must not see the casts: a column computed by an expression makes its planner scan the
 * whole table and probe an automatic index on the values instead, a read of the table per batch
 * (the plans are checked in batch-lookup-plans.test.ts).
 */
export function valuesList<DB>(
  db: Kysely<DB>,
  rows: ReadonlyArray<readonly unknown[]>,
  types: ReadonlyArray<'integer' | 'text'>,
): RawBuilder<unknown> {
  const typed = dialectOf(db).typedValues;
  const cell = (value: unknown, i: number) => (typed ? sql`cast(${value} as ${sql.raw(types[i]!)})` : sql`${value}`);
  return sql`values ${sql.join(rows.map((row) => sql`(${sql.join(row.map(cell))})`))}`;
}
