/**
 * An import chunk's transaction on PostgreSQL (prefer-index-lookups.ts): a table the import grew
 * past its statistics is analyzed, the lookups by key seek their indexes, and the settings end
 * with the transaction. On SQLite the call does nothing. Plans are read with EXPLAIN, never timed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { freshPostgresDatabase } from '../../../../test/helpers/postgres.ts';
import { openPostgresStorage } from '../postgres/open-postgres-storage.ts';
import { openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';
import type { Database } from '../schema.ts';
import { ImportRepository } from './import-repository.ts';
import { analyzeGrownTables, preferIndexLookups } from './prefer-index-lookups.ts';

const USERS = 20_000;

/** The users an import just wrote: many more rows than the table's statistics know of. */
async function seedUsers(db: Kysely<Database>): Promise<void> {
  await sql`analyze users`.execute(db);
  await db.transaction().execute(async (trx) => {
    await sql`
      insert into users (public_id, email, email_lower, name, role, is_active, date_joined, modified)
      select 'u-' || i, 'U' || i || '@Example.com', 'u' || i || '@example.com', 'User ' || i, 'user', 1,
             '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'
      from generate_series(1, ${USERS}) as i`.execute(trx);
    // a backend reports its changes to the statistics views a second or more after it commits;
    // an import's next chunk comes later than that, a test's next statement does not
    await sql`select pg_stat_force_next_flush()`.execute(trx);
  });
}

const planOf = async (db: Kysely<Database>, query: string): Promise<string> =>
  (await sql.raw<{ 'QUERY PLAN': string }>(`explain ${query}`).execute(db)).rows.map((row) => row['QUERY PLAN']).join('\n');

const lookup = `select u.id from users u where u.email_lower in (${Array.from({ length: 500 }, (_, i) => `'u${i * 37}@example.com'`).join(', ')})`;

describe('an import chunk’s plans on PostgreSQL', () => {
  it('analyzes the grown table before the chunk, seeks indexes, and leaves the settings to the transaction', async () => {
    const storage = await openPostgresStorage({ url: await freshPostgresDatabase() });
    try {
      const db = storage.db;
      await seedUsers(db);
      const settings = sql<{ seq: string; bitmap: string; merge: string; hash: string; parallel: string }>`
        select current_setting('enable_seqscan') as seq, current_setting('enable_bitmapscan') as bitmap,
          current_setting('enable_mergejoin') as merge, current_setting('enable_hashjoin') as hash,
          current_setting('max_parallel_workers_per_gather') as parallel`;
      const before = (await settings.execute(db)).rows[0]!;
      assert.notEqual(before.parallel, '0', 'the server plans with parallel workers');
      await analyzeGrownTables(db);
      await db.transaction().execute(async (trx) => {
        await preferIndexLookups(trx);
        assert.deepEqual((await settings.execute(trx)).rows[0], { seq: 'off', bitmap: 'off', merge: 'off', hash: 'off', parallel: '0' });
        const known = await sql<{ n: number }>`select reltuples::integer as n from pg_class where relname = 'users'`.execute(trx);
        assert.ok(known.rows[0]!.n >= USERS * 0.9, `the statistics count the new rows: ${known.rows[0]!.n}`);
        const plan = await planOf(trx, lookup);
        assert.match(plan, /Index (Only )?Scan using users_email_lower_key/, plan);
        assert.doesNotMatch(plan, /Seq Scan|Bitmap/, plan);
      });
      assert.deepEqual((await settings.execute(db)).rows[0], before, 'the settings ended with the transaction');
    } finally {
      await storage.close();
    }
  });

  it('looks an import’s earlier rows up by import and identity both, though its statistics have not seen the import', async () => {
    const storage = await openPostgresStorage({ url: await freshPostgresDatabase() });
    try {
      const db = storage.db;
      // statistics from before the running import: its id is unknown to them, as it is mid-import
      // identities as long as an assignment's (two ids): the identity index is then larger than
      // the primary key, as it is in a real import, and the primary key looks the cheaper read
      await sql`insert into import_results (import_id, row, status, identity)
        select 1, i, 'created', md5(i::text) || md5('old' || i) from generate_series(1, 20000) as i`.execute(db);
      await sql`analyze import_results`.execute(db);
      await sql`insert into import_results (import_id, row, status, identity)
        select 2, i, 'created', md5(i::text) || md5('new' || i) from generate_series(1, 20000) as i`.execute(db);
      await db.transaction().execute(async (trx) => {
        await preferIndexLookups(trx);
        const sent: CompiledQuery[] = [];
        const recorded = trx.withPlugin({
          transformQuery: (args) => {
            sent.push(trx.getExecutor().compileQuery(args.node, args.queryId));
            return args.node;
          },
          transformResult: async (args) => args.result,
        });
        const identities = (
          await sql<{
            identity: string;
          }>`select md5(i::text) || md5('new' || i) as identity from generate_series(1, 20000, 40) as i`.execute(trx)
        ).rows.map((row) => row.identity);
        const first = await new ImportRepository(recorded).firstRowsOf(2, identities);
        assert.equal(first.size, 500);
        assert.equal(first.get(identities[1]!), 41);
        assert.equal(sent.length, 1);
        const explained = await trx.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain ${sent[0]!.sql}`, [...sent[0]!.parameters]),
        );
        const plan = explained.rows.map((row) => row['QUERY PLAN']).join('\n');
        assert.match(plan, /Index Cond: \(\(import_id = \$?\d+\) AND \(identity = /, plan);
        assert.doesNotMatch(plan, /Filter: \(identity/, plan);
      });
    } finally {
      await storage.close();
    }
  });

  it('leaves a table whose statistics are current alone', async () => {
    const storage = await openPostgresStorage({ url: await freshPostgresDatabase() });
    try {
      const db = storage.db;
      await seedUsers(db);
      await sql`analyze users`.execute(db);
      const before = await sql<{ n: number }>`select analyze_count::integer as n from pg_stat_user_tables where relname = 'users'`.execute(
        db,
      );
      await analyzeGrownTables(db);
      // the statistics system reports a backend's counts at its transaction's end, within a second
      await sql`select pg_stat_clear_snapshot()`.execute(db);
      const later = await sql<{ n: number }>`select analyze_count::integer as n from pg_stat_user_tables where relname = 'users'`.execute(
        db,
      );
      assert.equal(later.rows[0]!.n, before.rows[0]!.n);
    } finally {
      await storage.close();
    }
  });
});

describe('an import chunk’s plans on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-prefer-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('sends nothing: SQLite keeps no statistics to refresh', async () => {
    const storage = await openSqliteStorage({ file: join(dir, 'x.db') });
    try {
      const sent: string[] = [];
      const logged = storage.db.withPlugin({
        transformQuery: (args) => {
          sent.push(args.node.kind);
          return args.node;
        },
        transformResult: async (args) => args.result,
      });
      await analyzeGrownTables(logged);
      await preferIndexLookups(logged);
      assert.deepEqual(sent, []);
    } finally {
      await storage.close();
    }
  });
});
