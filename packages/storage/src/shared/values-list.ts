import { sql, type RawBuilder } from 'kysely';

/**
 * Rows of values as a table for a query to join (`with p(a, b) as (values …)`), each value cast to
 * its column's type so PostgreSQL knows the bound parameters' types. A batch's lookups by many
 * keys go through this rather than `column in (…)`: SQLite answers an OR of pairs with a scan, and
 * PostgreSQL plans a long IN list on `users.email_lower` with its trigram index, at seconds a
 * lookup; joined to a table of the keys, both use the unique index.
 */
export function valuesList(rows: ReadonlyArray<readonly unknown[]>, types: ReadonlyArray<'integer' | 'text'>): RawBuilder<unknown> {
  return sql`values ${sql.join(
    rows.map((row) => sql`(${sql.join(row.map((value, i) => sql`cast(${value} as ${sql.raw(types[i]!)})`))})`),
  )}`;
}
