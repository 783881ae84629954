import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { openSqliteDatabase } from '../sqlite/open-sqlite-storage.ts';
import { createCountTable } from './count-table.ts';

describe('createCountTable', () => {
  it('writes the statement migrations 0013 and 0019 wrote by hand, to the whitespace', async () => {
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: openSqliteDatabase({ file: ':memory:' }) }) });
    await createCountTable(db, 'event_seat_counts', { event_id: 'integer', attendance_method: 'text', status: 'text' });
    // SQLite keeps the statement's text: a fresh database must read as the ones migrated before the helper
    const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where name = 'event_seat_counts'`.execute(db);
    assert.equal(
      rows[0]!.sql,
      `CREATE TABLE event_seat_counts (
    event_id integer not null,
    attendance_method text not null,
    status text not null,
    n integer not null,
    primary key (event_id, attendance_method, status)
  ) without rowid`,
    );
    await db.destroy();
  });
});
