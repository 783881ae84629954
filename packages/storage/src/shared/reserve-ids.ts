import { sql, type Kysely } from 'kysely';
import { dialectOf } from './dialect.ts';
import type { Database } from '../schema.ts';

/**
 * Takes the next `count` internal ids of a table before its rows are written, so that rows that
 * point at them (an enrollment's owned assignment points back at its enrollment) can be written
 * first, and the table's rows inserted complete rather than inserted and then updated.
 * PostgreSQL draws them from the identity's sequence, which never hands one out twice. SQLite's
 * AUTOINCREMENT numbers from the largest id it has ever given; the transaction holds the write
 * lock (BEGIN IMMEDIATE) until the rows are inserted, and inserting them moves that mark on.
 */
export async function reserveIds(db: Kysely<Database>, table: 'enrollments', count: number): Promise<number[]> {
  if (count === 0) return [];
  if (dialectOf(db).idSequences) {
    const rows = await sql<{ id: number }>`
      select nextval(pg_get_serial_sequence(${table}, 'id'))::integer as id from generate_series(1, ${count})`.execute(db);
    return rows.rows.map((row) => row.id);
  }
  const rows = await sql<{ last: number }>`
    select coalesce((select seq from sqlite_sequence where name = ${table}), 0) as last`.execute(db);
  const last = Number(rows.rows[0]!.last);
  return Array.from({ length: count }, (_, i) => last + 1 + i);
}
