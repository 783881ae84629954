import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';
import type { KyselyStorage } from '../kysely-storage.ts';
import type { Database } from '../schema.ts';
import { preparedLookup, preparedQuery } from './prepared-query.ts';

describe('prepared queries on SQLite', () => {
  let storage: KyselyStorage | undefined;
  after(async () => storage?.close());

  const nameById = preparedQuery<{ name: string }, [id: number]>(1, (db, id) => db.selectFrom('probe').select('name').where('id', '=', id));

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

  const nameOf = preparedLookup<{ name: string }, [id: number]>(1, (db, id) => db.selectFrom('probe').select('name').where('id', '=', id));

  it('look one row up by key, or answer undefined, whether they run at once or wait their turn', async () => {
    storage = await openSqliteStorage({ file: ':memory:' });
    const db = storage.db;
    await sql`create table probe (id integer primary key, name text not null)`.execute(db);
    await sql`insert into probe (id, name) values (1, 'one'), (2, 'two')`.execute(db);

    assert.deepEqual(nameOf(db, 2), { name: 'two' }, 'a lone lookup answers its row without a promise');
    assert.equal(nameOf(db, 3), undefined, 'and undefined when there is none');

    let found: ReturnType<typeof nameOf> | undefined;
    let missing: ReturnType<typeof nameOf> | undefined;
    await db.transaction().execute(async (trx) => {
      await sql`update probe set name = 'uno' where id = 1`.execute(trx);
      found = nameOf(db, 1);
      missing = nameOf(db, 3);
      assert.ok(found instanceof Promise && missing instanceof Promise, 'while a transaction holds the connection, lookups queue');
      assert.deepEqual(await nameOf(trx, 1), { name: 'uno' }, 'the transaction reads its own rows');
    });
    assert.deepEqual(await found, { name: 'uno' });
    assert.equal(await missing, undefined);
  });
});
