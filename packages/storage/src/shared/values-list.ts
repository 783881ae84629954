import { sql, type RawBuilder } from 'kysely';

/**
 * Rows of values as a table for a query to join (`with p(a, b) as (values …)`), each value cast to
 * its column's type so PostgreSQL knows the bound parameters' types. A batch's lookups by many
 * pairs of keys go through this rather than an OR of conditions, which SQLite answers with a scan:
 * joined to a table of the pairs, both databases use the pair's unique index.
 */
export function valuesList(rows: ReadonlyArray<readonly unknown[]>, types: ReadonlyArray<'integer' | 'text'>): RawBuilder<unknown> {
  return sql`values ${sql.join(
    rows.map((row) => sql`(${sql.join(row.map((value, i) => sql`cast(${value} as ${sql.raw(types[i]!)})`))})`),
  )}`;
}
