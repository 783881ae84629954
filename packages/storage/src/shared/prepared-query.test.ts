import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';
import type { KyselyStorage } from '../kysely-storage.ts';
import type { Database } from '../schema.ts';
import { preparedQuery } from './prepared-query.ts';

describe('prepared queries on SQLite', () => {
  let storage: KyselyStorage | undefined;
  after(async () => storage?.close());

  const nameById = preparedQuery<{ name: string }>(1, (db, id) =>
    db
      .selectFrom('probe')
      .select('name')
      .where('id', '=', id as unknown as number),
  );

  const rename = (db: Kysely<Database>, name: string) => sql`update probe set name = ${name} where id = 1`.execute(db);

  it('answer at once when the connection is free, and never read another request’s uncommitted rows', async () => {
    storage = await openSqliteStorage({ file: ':memory:' });
    const db = storage.db;
    await sql`create table probe (id integer primary key, name text not null)`.execute(db);
    await sql`insert into probe (id, name) values (1, 'before')`.execute(db);

    assert.deepEqual(nameById(db, 1), [{ name: 'before' }], 'a lone read is answered without a promise');

    let during: ReturnType<typeof nameById> | undefined;
    await db.transaction().execute(async (trx) => {
      await rename(trx, 'after');
      during = nameById(db, 1);
      assert.ok(during instanceof Promise, 'while a transaction holds the connection, the read queues');
      assert.deepEqual(await nameById(trx, 1), [{ name: 'after' }], 'the transaction reads its own rows');
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
    assert.deepEqual(await during, [{ name: 'after' }], 'the queued read runs after the commit');

    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await rename(trx, 'rolled back');
        during = nameById(db, 1);
        throw new Error('abandon');
      }),
      /abandon/,
    );
    assert.deepEqual(await during, [{ name: 'after' }]);
    assert.deepEqual(nameById(db, 1), [{ name: 'after' }]);
  });
});
