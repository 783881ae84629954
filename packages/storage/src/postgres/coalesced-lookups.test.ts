import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';
import { coalescedLookups, lateralText } from './coalesced-lookups.ts';

describe('coalesced lookups', () => {
  it("swap each parameter for its call's value, and leave quoted text alone", () => {
    assert.equal(
      lateralText(`select "a$1", '$2 it''s' as s from t where id = $1 and x = $2`, 2, ['bigint', 'text']),
      `select b.lectern_call, q.* from unnest(cast($1 as bigint[]), cast($2 as text[])) with ordinality as b(p1, p2, lectern_call) ` +
        `cross join lateral (select "a$1", '$2 it''s' as s from t where id = b.p1 and x = b.p2) q`,
    );
    assert.equal(lateralText('insert into t (a) values ($1) returning a', 1, ['text']), undefined, 'a write runs alone');
    assert.equal(lateralText('with w as (delete from t) select $1', 1, ['text']), undefined, 'a WITH may hold a write');
    assert.equal(lateralText('select 1', 0, []), undefined, 'nothing to tell calls apart by');
  });

  it(
    'answer each call its own rows when concurrent calls go as one statement, and fail only a bad call',
    { skip: !postgresServerUrl && 'no PostgreSQL server' },
    async () => {
      const pool = new pg.Pool({ connectionString: await freshPostgresDatabase(), max: 4 });
      try {
        await pool.query(`create table people (id integer primary key, public_id text unique not null, name text not null)`);
        await pool.query(`insert into people select i, 'p' || i, 'name ' || i from generate_series(1, 500) as i`);
        const texts: string[] = [];
        const run = async (text: string, values: readonly unknown[]) => {
          texts.push(text);
          return (await pool.query(text, values as unknown[])).rows as Record<string, unknown>[];
        };
        const lookup = coalescedLookups(async () => pool, run);
        const byPublicId = 'select id, name from people where public_id = $1 and id > $2';
        const together = () => texts.some((text) => text.includes('lateral'));

        // the first calls run alone while the parameters' types are asked; then calls that come
        // while others are out go together
        for (let round = 0; round < 50 && !together(); round++) {
          const keys = Array.from({ length: 20 }, (_, i) => 1 + ((round * 20 + i) % 500));
          const answers = await Promise.all(keys.map((key) => lookup(byPublicId, [`p${key}`, 0])));
          answers.forEach((rows, i) => assert.deepEqual(rows, [{ id: keys[i], name: `name ${keys[i]}` }]));
        }
        assert.ok(together(), 'concurrent calls went as one statement');

        const calls = [`p7`, `p404`, `p9`, `p8`].map((key, i) => lookup(byPublicId, [key, i === 3 ? 100 : 0]));
        assert.deepEqual(await Promise.all(calls), [
          [{ id: 7, name: 'name 7' }],
          [{ id: 404, name: 'name 404' }],
          [{ id: 9, name: 'name 9' }],
          [],
        ]);
        const missing = await Promise.all(Array.from({ length: 6 }, () => lookup(byPublicId, ['nobody', 0])));
        assert.deepEqual(missing, [[], [], [], [], [], []], 'a call that finds nothing answers no row');

        const before = texts.length;
        const mixed = await Promise.all(
          ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((key, i) =>
            lookup(byPublicId, [key, i === 4 ? 'not a number' : 0]).then(
              (rows) => rows.length,
              (error: Error) => error.message,
            ),
          ),
        );
        assert.deepEqual(mixed.slice(0, 4), [1, 1, 1, 1]);
        assert.match(String(mixed[4]), /invalid input syntax/, 'the bad value fails its own call');
        assert.equal(mixed[5], 1);
        assert.ok(
          texts.slice(before).some((text) => text.includes('lateral')),
          'the bad value was in a statement of several calls',
        );
      } finally {
        await pool.end();
      }
    },
  );
});
