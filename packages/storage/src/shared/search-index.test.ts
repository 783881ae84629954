/**
 * `search` on users and content items through an index (migration 0012), on both databases: the
 * same results as the substring rule on every kind of term, and query plans that use the index
 * instead of reading every row. Plans are read with EXPLAIN: deterministic, never timed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Kysely, SqliteDialect, sql, type Compilable, type CompiledQuery } from 'kysely';
import { contentListSpec, createLectern, parseListQuery, userListSpec, type Lectern } from '@lectern/core';
import { foldCase } from '@lectern/core/ports';
import { createLearner } from '../../../../test/helpers/learner.ts';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';
import { KyselyStorage } from '../kysely-storage.ts';
import { openPostgresStorage } from '../postgres/open-postgres-storage.ts';
import type { Database } from '../schema.ts';
import { openSqliteDatabase, openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';
import { contentResource } from '../content/content-resource.ts';
import { userResource } from '../users/user-repository.ts';
import { applyFilters, commonSearch } from '../listing/list-builder.ts';
import { listOn } from '../listing/resource-definition.ts';
import { isPostgres } from '../migrations/dialect.ts';

const dir = mkdtempSync(join(tmpdir(), 'lectern-search-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const DIALECTS: Array<{ name: string; open: () => Promise<KyselyStorage> }> = [
  { name: 'sqlite', open: () => openSqliteStorage({ file: join(dir, `search-${Math.random()}.db`) }) },
  ...(postgresServerUrl ? [{ name: 'postgres', open: async () => openPostgresStorage({ url: await freshPostgresDatabase() }) }] : []),
];

const NAMES = [
  'Ada Lovelace',
  'ADA LOVELACE junior',
  'Zoë Ångström',
  'Zoe\u0308 decomposed',
  'Ægir Þórsson',
  'Дмитрий Иванов',
  'Ελένη Παπαδοπούλου',
  '山田 太郎',
  '100% sure_thing',
  'back\\slash "quoted"',
  'NEAR(a b) AND OR NOT *',
  'Kelvin \u212A sign',
];
const TERMS = [
  'a',
  'ad',
  'ada',
  'ADA LOVE',
  'lovelace junior',
  'zoë',
  'ZOË',
  'ångström',
  'ÆGIR',
  'иван',
  'ΕΛΈΝΗ',
  '山田',
  '山田 太',
  '100%',
  '%',
  '_th',
  'e_t',
  'h\\s',
  '"quoted"',
  'NEAR(a',
  'AND OR',
  '*',
  'kelvin k',
  'example.com',
  'user3@',
  'nothing like it',
];

for (const dialect of DIALECTS) {
  describe(`search index: ${dialect.name}`, () => {
    let storage: KyselyStorage;
    let lectern: Lectern;

    it('finds exactly what the substring rule finds, for users and content items, on every kind of term', async () => {
      storage = await dialect.open();
      lectern = createLectern({ storage });
      const ctx = lectern.context();
      for (const [index, name] of NAMES.entries()) {
        await lectern.users.create(ctx, { email: `user${index}@example.com`, name });
        await lectern.content.create(ctx, 'article', { name });
      }
      // a rename moves the row in the index (the trigger on update)
      const renamed = (await lectern.users.list(ctx, { search: 'kelvin' })).data[0]!;
      await lectern.users.update(ctx, renamed.public_id, { name: 'Kelvin \u212A sign, renamed' });

      const users = (await lectern.users.list(ctx, { page_size: '100' })).data;
      const items = (await lectern.content.list(ctx, { page_size: '100' })).data;
      const contains = (text: string, term: string) => foldCase(text).includes(foldCase(term.trim()));
      for (const term of TERMS) {
        const foundUsers = (await lectern.users.list(ctx, { search: term, page_size: '100' })).data.map((user) => user.email).sort();
        const expectedUsers = users
          .filter((user) => contains(user.email, term) || contains(user.name, term))
          .map((user) => user.email)
          .sort();
        assert.deepEqual(foundUsers, expectedUsers, `users, search=${JSON.stringify(term)}`);
        const foundItems = (await lectern.content.list(ctx, { search: term, page_size: '100' })).data.map((item) => item.public_id).sort();
        const expectedItems = items
          .filter((item) => contains(item.name, term))
          .map((item) => item.public_id)
          .sort();
        assert.deepEqual(foundItems, expectedItems, `content items, search=${JSON.stringify(term)}`);
      }
    });

    it('pages a common term in order, page by page, with the same rows as the substring rule', async () => {
      // small pages make walking the order's index cheaper than the index's candidates (SQLite)
      const ctx = lectern.context();
      // enough matches that the pages are cheaper to walk in order than to sort (SQLite); the newest
      // users, and the first by name, match none of the terms
      for (let i = 0; i < 40; i++) await lectern.users.create(ctx, { email: `more${i}@example.com`, name: `More ${i}` });
      await lectern.users.create(ctx, { email: 'aaron@elsewhere.org', name: 'Aaron' });
      await lectern.users.create(ctx, { email: 'abe@elsewhere.org', name: 'Abe' });
      for (const [term, ordering] of [
        ['example.com', '-date_joined'],
        ['EXAMPLE', 'name'],
        ['user1', 'date_joined'],
      ] as const) {
        const everyone = (await lectern.users.list(ctx, { search: term, ordering, page_size: '100' })).data.map((user) => user.email);
        assert.ok(everyone.length >= 2, term);
        const paged: string[] = [];
        for (let page = 1; paged.length < everyone.length; page++) {
          const { data, meta } = await lectern.users.list(ctx, { search: term, ordering, page_size: '2', page: String(page) });
          assert.equal(meta.total_count, everyone.length, `${term}: the total on page ${page}`);
          paged.push(...data.map((user) => user.email));
        }
        assert.deepEqual(paged, everyone, `${term}, ordered by ${ordering}`);
      }
    });

    // PostgreSQL has no FTS table: its trigram indexes serve the substring rule directly
    if (dialect.name === 'sqlite') {
      it('tells a common term, read row by row, from a rare one, taken from the index', async () => {
        const index = listOn(storage.db, userResource.list()).searchIndex!;
        const { rows } = await sql<{ n: number }>`select count(*) as n from users`.execute(storage.db);
        const size = Number(rows[0]!.n);
        assert.equal(await commonSearch(storage.db, index, 'EXAMPLE', size), true, 'every user but two matches');
        assert.equal(await commonSearch(storage.db, index, 'lovelace junior', size), false, 'one user matches');
        assert.equal(await commonSearch(storage.db, index, 'nothing like it', size), false);
        assert.equal(await commonSearch(storage.db, index, 'ex', size), false, 'too short for the index: never asked');
        // the rows a common term is read for are the substring rule's, page by page (tested above)
        const listed = await lectern.users.list(lectern.context(), { search: 'EXAMPLE', page_size: '100' });
        assert.equal(listed.meta.total_count, size - 2);
      });
    }

    // PostgreSQL answers a common term from its trigram indexes as any other
    if (dialect.name === 'sqlite') {
      it("counts a common term's content items in a narrow index, the admin's and the learner's", async () => {
        // the list as the repository builds it, caught on its way to a second connection to the file
        const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(storage.db);
        const captured: CompiledQuery[] = [];
        const logging = new Kysely<Database>({
          dialect: new SqliteDialect({ database: openSqliteDatabase({ file: rows[0]!.file }) }),
          log: (event) => {
            if (event.level === 'query' && /^select count\(\*\) as "total" from "content_items"/.test(event.query.sql))
              captured.push(event.query);
          },
        });
        const planned = createLectern({ storage: new KyselyStorage(logging) });
        const { actor: learner } = await createLearner(lectern, 'learner@elsewhere.org');
        // a term in most names is common: it is checked row by row
        for (let i = 0; i < 40; i++) await lectern.content.create(lectern.context(), 'article', { name: `An article ${i}` });
        for (const actor of [undefined, learner]) await planned.content.list(planned.context(actor), { search: 'article', page_size: '1' });
        await planned.close();
        assert.equal(captured.length, 2, 'one count for the admin, one for the learner');
        const [admin, learnerPlan] = await Promise.all(captured.map((query) => planOf(storage.db, { compile: () => query })));
        assert.match(admin!, /SCAN ci USING COVERING INDEX content_items_search_scan_idx/, admin);
        assert.match(learnerPlan!, /SCAN ci USING COVERING INDEX content_items_listed_search_idx/, learnerPlan);
        // the text is compared with instr(), before the learner's access groups are looked up
        const learnerSql = captured[1]!.sql;
        assert.ok(learnerSql.indexOf('instr(') >= 0 && learnerSql.indexOf('instr(') < learnerSql.indexOf('has_access_groups'), learnerSql);
        // a restricted item's groups are read by its id, not probed once per group of the learner's
        assert.match(learnerPlan!, /SEARCH va USING COVERING INDEX sqlite_autoindex_content_groups_1 \(content_id=\?\)/, learnerPlan);
      });
    }

    it('answers a search of three or more characters from the index, not by reading every row', async () => {
      const db = storage.db;
      const users = applyFilters(
        db.selectFrom('users as u'),
        parseListQuery(userListSpec, { search: 'lovelace' }),
        listOn(db, userResource.list()),
      );
      const items = applyFilters(
        db.selectFrom('content_items as ci'),
        parseListQuery(contentListSpec, { search: 'lovelace' }),
        listOn(db, contentResource.list()),
      );
      // the count, and a page in an order an index could also serve (which must not win over the search)
      const plans = [
        await planOf(db, users.select(sql`count(*)`.as('n'))),
        await planOf(db, users.select('u.id').orderBy('u.date_joined', 'desc').limit(25)),
        await planOf(db, items.select(sql`count(*)`.as('n'))),
        await planOf(db, items.select('ci.id').orderBy('ci.created', 'desc').limit(25)),
      ];
      for (const plan of plans) {
        if (dialect.name === 'sqlite') {
          assert.match(plan, /VIRTUAL TABLE INDEX/, plan);
          assert.doesNotMatch(plan, /SCAN (u|ci)\b/, plan);
        } else {
          assert.match(plan, /Bitmap Index Scan on \w+_trgm_idx/, plan);
          assert.doesNotMatch(plan, /Seq Scan on (users|content_items)/, plan);
        }
      }
      await lectern.close();
    });
  });
}

/** The plan of `query`, as one text. */
async function planOf(db: Kysely<Database>, query: Compilable): Promise<string> {
  const compiled = query.compile();
  const postgres = isPostgres(db as Kysely<unknown>);
  return db.connection().execute(async (connection) => {
    // with a handful of rows and no statistics PostgreSQL rightly reads the table, or walks an index
    // in the page's order: the test asks whether the trigram index can serve the search
    if (postgres) await connection.executeQuery(sql`set enable_seqscan = off`.compile(db));
    if (postgres) await connection.executeQuery(sql`set enable_indexscan = off`.compile(db));
    const explained = await connection.executeQuery<Record<string, string>>({
      ...compiled,
      sql: `${postgres ? 'explain' : 'explain query plan'} ${compiled.sql}`,
    });
    return explained.rows.map((row) => row.detail ?? row['QUERY PLAN']).join('\n');
  });
}
