/**
 * Every session Lectern opens on PostgreSQL is configured the same way (docs/scaling.md): JIT off,
 * since compiling a query costs more than Lectern's queries take; a five-second lock timeout; and
 * the `options` an operator puts in the URL kept.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';
import { openPostgres, sessionOptions } from './open-postgres-storage.ts';

describe('PostgreSQL sessions', () => {
  it("turn JIT off after the URL's own options", () => {
    assert.equal(sessionOptions('postgres://u@h/db'), '-c jit=off');
    assert.equal(sessionOptions('postgres://u@h/db?options=-c%20search_path%3Dlms'), '-c search_path=lms -c jit=off');
  });

  it(
    'run with JIT off, the lock timeout, and the options the URL gives',
    { skip: !postgresServerUrl && 'no PostgreSQL server' },
    async () => {
      const url = new URL(await freshPostgresDatabase());
      url.searchParams.set('options', '-c statement_timeout=12345');
      const db = openPostgres({ url: url.toString() });
      try {
        const setting = async (name: string) =>
          (await sql<{ setting: string }>`select current_setting(${name}) as setting`.execute(db)).rows[0]!.setting;
        assert.equal(await setting('jit'), 'off');
        assert.equal(await setting('lock_timeout'), '5s');
        assert.equal(await setting('statement_timeout'), '12345ms');
      } finally {
        await db.destroy();
      }
    },
  );
});
