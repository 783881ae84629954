import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { assignmentStates, isOverdue, type AssignmentState } from '@lectern/core/ports';
import { overdueSql } from './assignment-repository.ts';

describe('the overdue rule in SQL', () => {
  const db = new Kysely<Record<string, never>>({ dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }) });
  after(() => db.destroy());

  it('agrees with core isOverdue on every state and due date around today, and its negation is exact', async () => {
    const today = '2026-11-23';
    const dueDates = [null, '2026-11-21', '2026-11-22', today, '2026-11-24', '2027-01-01'];
    const rows = assignmentStates.flatMap((state) => dueDates.map((due_date) => ({ state, due_date })));
    const values = sql.join(rows.map((row) => sql`(${row.state}, ${row.due_date})`));
    const result = await sql<{ state: AssignmentState; due_date: string | null; overdue: number; not_overdue: number }>`
      with a(state, due_date) as (values ${values})
      select state, due_date,
        coalesce(${overdueSql(today)}, 0) as overdue,
        (a.due_date is null or not ${overdueSql(today)}) as not_overdue
      from a`.execute(db);
    assert.equal(result.rows.length, rows.length);
    for (const row of result.rows) {
      const expected = isOverdue(row, today);
      assert.equal(row.overdue === 1, expected, `${row.state} due ${row.due_date}`);
      assert.equal(row.not_overdue === 1, !expected, `negation: ${row.state} due ${row.due_date}`);
    }
    assert.ok(
      result.rows.some((row) => row.overdue === 1),
      'the table holds overdue rows',
    );
  });
});
