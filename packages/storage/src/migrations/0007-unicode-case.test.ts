import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { migrateToLatest } from '../kysely-storage.ts';
import type { Database } from '../schema.ts';
import { openSqliteDatabase } from '../sqlite/open-sqlite-storage.ts';
import { migrationProvider } from './index.ts';

/** A database at 0006 holding users as the earlier code wrote them (email_lower = email.toLowerCase()). */
async function databaseBefore(emails: readonly string[]): Promise<Kysely<Database>> {
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: openSqliteDatabase({ file: ':memory:' }) }) });
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo('0006-reports');
  assert.equal(error, undefined);
  for (const [index, email] of emails.entries()) {
    await sql`insert into users (public_id, email, email_lower, name, role, is_active, date_joined, modified)
      values (${`00000000-0000-4000-8000-00000000000${index}`}, ${email}, ${email.toLowerCase()}, 'x', 'user', 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(
      db,
    );
  }
  return db;
}

const emailLowers = async (db: Kysely<Database>) =>
  (await db.selectFrom('users').select('email_lower').orderBy('id').execute()).map((row) => row.email_lower);

describe('migration 0007-unicode-case', () => {
  it('refolds stored emails to NFC lower case and drops the ASCII-only index', async () => {
    const db = await databaseBefore(['ZOE\u0308@example.com', 'Ann@Example.com']);
    await migrateToLatest(db);
    assert.deepEqual(await emailLowers(db), ['zo\u00eb@example.com', 'ann@example.com']);
    const indexes = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'users'`.execute(db);
    assert.ok(!indexes.rows.some((row) => row.name === 'users_email_folded_idx'));
    await db.destroy();
  });

  it('stops and names the users whose emails now fold alike', async () => {
    const db = await databaseBefore(['zo\u00eb@example.com', 'ZOE\u0308@example.com', 'other@example.com']);
    await assert.rejects(migrateToLatest(db), (error: Error) => {
      assert.match(error.message, /0007-unicode-case failed: /);
      assert.ok(error.message.includes('zo\u00eb@example.com (id 1) = ZOE\u0308@example.com (id 2)'), error.message);
      return true;
    });
    assert.deepEqual(await emailLowers(db), ['zo\u00eb@example.com', 'zoe\u0308@example.com', 'other@example.com'], 'nothing changed');
    await db.destroy();
  });
});
