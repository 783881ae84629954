import { sql, type Kysely } from 'kysely';
import { withoutRowid } from './dialect.ts';

/**
 * Creates a table of counts kept per write (docs/scaling.md, "Counts kept per write"): one row per
 * key, the key's columns (all not null) then its count `n`, keyed by the key alone. Migrations
 * that have run call it, so the statement it writes must never change: a fresh database has to
 * come out as the ones migrated before.
 */
export async function createCountTable(
  db: Kysely<unknown>,
  table: string,
  key: Readonly<Record<string, 'integer' | 'text'>>,
): Promise<void> {
  const columns = Object.entries(key).map(([name, type]) => `    ${name} ${type} not null,\n`);
  const body = `${table} (\n${columns.join('')}    n integer not null,\n    primary key (${Object.keys(key).join(', ')})\n  )`;
  // names and types are the migration's own constants, never input
  await sql`create table ${sql.raw(body)}${withoutRowid(db)}`.execute(db);
}
