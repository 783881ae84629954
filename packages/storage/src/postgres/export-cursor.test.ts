/**
 * An export's cursor (export-cursor.ts) hands over its rows as JSON text made by PostgreSQL where
 * every column's type allows it: the rows it gives must be exactly those pg gives for the same
 * query, values, keys and key order, whatever the values hold.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { openPostgres } from './open-postgres-storage.ts';
import { ExportCursors, jsonRows } from './export-cursor.ts';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';

/** Every value a column of these types can hold that JSON could carry differently from pg's text. */
const VALUES = `
  select n, t, r, d, i, b, big, num, n as "dup", t as "dup" from (values
    (1, 'plain', real '0.1', double precision '0.1', 7, true, int8 '9007199254740993', numeric '1.50'),
    (2, e'quote " backslash \\\\ tab \\t newline \\n nul-less control \\u0001 del \\u007f', real 'NaN', double precision 'NaN', -2147483648, false, int8 '-9223372036854775808', numeric 'NaN'),
    (3, 'unicode é 漢字 🙂 ' || chr(8232) || chr(8233), real 'Infinity', double precision '-Infinity', 2147483647, null, int8 '0', numeric '123456789012345678901234567890.123456789'),
    (4, '', real '-0', double precision '-0', 0, true, null, numeric '-0.000000000000000000001'),
    (5, null, real '3.4028235e38', double precision '5e-324', null, false, int8 '9223372036854775807', null),
    (6, '{"json": [1, "text"]}', real '-Infinity', double precision 'Infinity', 1, true, int8 '1', numeric '1e-30')
  ) as v(n, t, r, d, i, b, big, num)
  order by n`;

describe('export cursor', { skip: !postgresServerUrl }, () => {
  const open = async () => {
    const url = await freshPostgresDatabase();
    // the pool loads pg and sets the adapter's type parsers (int8 and numeric as numbers)
    const db = openPostgres({ url });
    await db.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
    const connect = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    };
    return { db, connect, cursors: new ExportCursors(connect, 2) };
  };

  for (const [name, text, json] of [
    ['as JSON text', VALUES, true],
    // a type JSON writes otherwise: the rows come as pg reads them
    ['as they are, with a timestamp', `select *, timestamptz '2026-01-02 03:04:05.678+00' as at from (${VALUES}) as v`, false],
  ] as const) {
    it(`gives the rows pg gives for the same query, ${name}`, async () => {
      const { db, connect, cursors } = await open();
      const client = await connect();
      try {
        const expected = (await client.query(text)).rows as unknown[];
        const cursor = await cursors.openCursor(text, [])!;
        const read: unknown[] = [];
        for (let rows: unknown[]; (rows = await cursor.read(4)).length > 0;) read.push(...rows);
        assert.deepStrictEqual(read, expected);
        // keys in the same order, a repeated name where pg puts it
        assert.deepStrictEqual(
          read.map((row) => Object.keys(row as object)),
          expected.map((row) => Object.keys(row as object)),
        );
        const { fields } = await client.query(text);
        assert.equal(jsonRows(fields, client) !== undefined, json, 'whether the rows came as JSON');
        assert.ok(Object.is((read[3] as { r: number }).r, -0), 'minus zero stays minus zero');
      } finally {
        await client.end();
        await cursors.close();
        await db.destroy();
      }
    });
  }

  it('lets its connection go when closed with the next batch being read ahead', async () => {
    const { db, connect, cursors } = await open();
    const admin = await connect();
    try {
      const cursor = await cursors.openCursor('select n from generate_series(1, 10000) as n order by n', [])!;
      assert.deepEqual(
        (await cursor.read(100)).map((row) => (row as { n: number }).n),
        Array.from({ length: 100 }, (_, n) => n + 1),
      );
      // the next FETCH is under way; closing ends it with the connection, and no error escapes
      await cursor.close();
      await assert.rejects(cursor.read(100), /closed before the end/);
      // the server ends the backend a moment after the client has gone: wait for it, for a while
      const busy = async () =>
        Number(
          (
            await admin.query<{ n: string }>(
              `select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`,
            )
          ).rows[0]!.n,
        );
      const deadline = Date.now() + 10_000;
      let left = await busy();
      while (left > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        left = await busy();
      }
      assert.equal(left, 0, 'a connection of the closed cursor is still at work');
    } finally {
      await admin.end();
      await cursors.close();
      await db.destroy();
    }
  });
});
