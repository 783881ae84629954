import { sql, type Kysely, type RawBuilder } from 'kysely';
import { dialectOf } from './dialect.ts';

/**
 * Rows of values as a table for a query to join (`with p(a, b) as (…)`). A batch's lookups by
 * many keys go through this rather than an OR of conditions, which SQLite answers with a scan:
 * joined to a table of the keys, both databases seek the key's unique index for each row.
 *
 * On PostgreSQL each column is one array parameter, typed by its cast, read back as rows by
 * `unnest`: a VALUES list of an import batch's 500 keys bound 500 to 1 000 parameters, each
 * compiled by kysely, serialised by pg and then parsed and planned by the server on its own, for
 * every batch (a multi-row statement of 500 rows took 7.8 to 12 ms at best that way, 3.6 to 5.3 ms
 * with its rows as one parameter). A batch's lookups plan as nested loops of index probes either
 * way (imports/prefer-index-lookups.ts).
 * SQLite gets the VALUES list, its values bare: a column computed by an expression makes its
 * planner scan the whole table and probe an automatic index on the values instead, a read of the
 * table per batch (the plans are checked in batch-lookup-plans.test.ts).
 */
export function valuesList<DB>(
  db: Kysely<DB>,
  rows: ReadonlyArray<readonly unknown[]>,
  types: ReadonlyArray<'integer' | 'text'>,
): RawBuilder<unknown> {
  if (dialectOf(db).arrayParameters) {
    const columns = types.map((type, i) => sql`cast(${rows.map((row) => row[i])} as ${sql.raw(type)}[])`);
    return sql`select * from unnest(${sql.join(columns)})`;
  }
  return sql`values ${sql.join(rows.map((row) => sql`(${sql.join(row.map((value) => sql`${value}`))})`))}`;
}
