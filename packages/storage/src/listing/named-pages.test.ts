/**
 * On PostgreSQL a list's page read outside a transaction runs as a named statement, whose plan the
 * server may keep, with its page size in its text; a list whose best plan depends on a value's
 * share of the rows (a range's bound, a search, a report's pattern or bound) stays unnamed
 * (readElsewhere). An insight's statement is named the same way. Read from pg_prepared_statements on
 * a pool of one connection.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { assignmentListSpec, compileRql, parseListQuery, reportResourceDefinitions } from '@lectern/core';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';
import { storedContentItem, storedUser } from '../../../../test/helpers/stored-rows.ts';
import type { KyselyStorage } from '../kysely-storage.ts';
import { openPostgresStorage } from '../postgres/open-postgres-storage.ts';
import { recountAssignments } from '../assignments/assignment-counts.ts';
import { boundsRows, readElsewhere } from './resource-definition.ts';

const ASSIGNMENTS = 30;
/** one learner, one assignment per content item */
const EMAIL = 'learner@example.com';

const rql = (expression: string) => compileRql(expression, reportResourceDefinitions.assignments!.catalogue);

describe('named list pages', () => {
  it('are decided by a rule: bounds and patterns stay unnamed, equalities do not', () => {
    assert.equal(boundsRows(rql(`eq(user.email,${EMAIL})`).filter), false);
    assert.equal(boundsRows(rql(`ilike(user.email,${EMAIL})`).filter), false, 'a pattern without a wildcard is an equality');
    assert.equal(boundsRows(rql('in(state,(completed,in_progress))').filter), false);
    assert.equal(boundsRows(rql('ilike(user.email,*@example.com)').filter), true);
    assert.equal(boundsRows(rql('and(eq(state,completed),not(gt(created,2025-01-01T00:00:00Z)))').filter), true);
    assert.equal(boundsRows(null), false);
  });
});

describe('named list pages on PostgreSQL', { skip: postgresServerUrl ? false : 'no PostgreSQL server' }, () => {
  let storage: KyselyStorage;

  before(async () => {
    storage = await openPostgresStorage({ url: await freshPostgresDatabase({ migrated: true }), poolSize: 1 });
    const { db } = storage;
    await db
      .insertInto('users')
      .values(
        storedUser({
          public_id: '00000000-0000-4000-8000-000000000001',
          email: EMAIL,
          name: 'Learner',
          date_joined: '2025-01-01T00:00:00.000Z',
        }),
      )
      .execute();
    await db
      .insertInto('content_items')
      .values(
        Array.from({ length: ASSIGNMENTS }, (_, n) =>
          storedContentItem({
            public_id: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
            content_type: 'video',
            name: `Item ${n}`,
            created: '2025-01-01T00:00:00.000Z',
          }),
        ),
      )
      .execute();
    await db
      .insertInto('assignments')
      .values(
        Array.from({ length: ASSIGNMENTS }, (_, n) => ({
          public_id: `20000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
          user_id: 1,
          content_id: n + 1,
          state: n % 3 === 0 ? 'completed' : 'not_started',
          progress: 0,
          attempt: 1,
          due_date: null,
          created: new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString(),
          modified: '2025-01-01T00:00:00.000Z',
        })),
      )
      .execute();
    await recountAssignments(db);
  });
  after(() => storage?.close());

  const list = (params: Record<string, string>, expression?: string) =>
    storage.assignments.list(parseListQuery(assignmentListSpec, params), {
      ownerId: null,
      today: '2026-06-01',
      ...(expression ? { rql: rql(expression) } : {}),
    });

  /** The statements prepared on the pool's one connection that read assignments. */
  const preparedNow = async () =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(storage.db)).rows
      .map((row) => row.statement)
      .filter((text) => text.includes('from "assignments" as "a"'));

  it('read a first page by name, its size in its text, and later pages by name with their offset bound', async () => {
    const first = await list({});
    assert.equal(first.total, ASSIGNMENTS);
    assert.equal(first.items.length, 25);
    const second = await list({ page: '2' });
    assert.equal(second.total, ASSIGNMENTS);
    assert.equal(second.items.length, ASSIGNMENTS - 25);
    const past = await list({ page: '3' });
    assert.deepEqual([past.total, past.items.length], [ASSIGNMENTS, 0], 'a page past the end counts on its own');
    const texts = await preparedNow();
    assert.ok(
      texts.some((text) => /limit 25$/.test(text)),
      `the first page with its size written in: ${texts.join('\n')}`,
    );
    assert.ok(texts.some((text) => /limit 25 offset \$\d+$/.test(text)));
    const completed = await list({ state: 'completed' });
    assert.equal(completed.total, ASSIGNMENTS / 3);
    const report = await list({}, `eq(user.email,${EMAIL})`);
    assert.equal(report.total, ASSIGNMENTS);
    assert.equal((await preparedNow()).length, texts.length + 2, 'a filter and a report of equalities are named too');
  });

  it('write core’s states into the text, so a kept plan is costed for the state asked for', async () => {
    const item = '10000000-0000-4000-8000-000000000003';
    for (let run = 0; run < 7; run++) assert.equal((await list({ content_item: item, state: 'completed' })).total, 1);
    const { rows } = await sql<{
      statement: string;
      generic_plans: number;
    }>`select statement, generic_plans from pg_prepared_statements`.execute(storage.db);
    const page = rows.find((row) => row.statement.includes("a.state in ('completed')") && row.statement.includes('c_by_public_id'));
    assert.ok(page, rows.map((row) => row.statement).join('\n'));
    assert.ok(Number(page.generic_plans) > 0, 'PostgreSQL keeps the generic plan after five custom ones');
  });

  it("name an insight's statement too, and leave a creation range's unnamed", async () => {
    const statements = async () =>
      (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(storage.db)).rows.map((row) => row.statement);
    const before = await statements();
    const all = { completed: ASSIGNMENTS / 3, not_started: (ASSIGNMENTS * 2) / 3 };
    assert.deepEqual(await storage.insights.countsByState({}), all);
    assert.deepEqual(await storage.insights.countsByState({ user: '00000000-0000-4000-8000-000000000001' }), all);
    const named = (await statements()).filter((text) => !before.includes(text));
    assert.equal(named.length, 2, named.join('\n'));
    assert.ok(
      named.some((text) => text.includes('"assignment_totals"')),
      'the kept totals, by name',
    );
    const now = await statements();
    assert.deepEqual(await storage.insights.countsByState({ createdGte: '2025-01-01T00:10:00.000Z' }), { completed: 6, not_started: 14 });
    assert.deepEqual(await statements(), now, 'a creation range is planned for its bounds');
  });

  it('leave ranges, searches and patterns unnamed', async () => {
    const before = await preparedNow();
    const ranged = await list({ due_date__gte: '2025-01-01' });
    assert.equal(ranged.total, 0);
    const patterned = await list({}, 'ilike(user.email,*@example.com)');
    assert.equal(patterned.total, ASSIGNMENTS);
    const query = parseListQuery(assignmentListSpec, {});
    assert.deepEqual(readElsewhere(storage.db, { ...query, search: 'item' }), {}, 'assignments have no search; other lists do');
    assert.deepEqual(await preparedNow(), before);
  });

  it('name a creation range whose total is kept: neither its count nor its page depends on its bound', async () => {
    const before = await preparedNow();
    const ranged = await list({ created__gte: '2025-01-01T00:10:00Z' });
    assert.equal(ranged.total, ASSIGNMENTS - 10);
    assert.equal((await list({ state: 'completed', created__lte: '2025-01-01T00:10:00Z' })).total, 4);
    const named = (await preparedNow()).filter((text) => !before.includes(text));
    assert.equal(named.length, 2, named.join('\n'));
    assert.ok(named.every((text) => text.includes('"assignment_created_totals"')));
    const unkept = await preparedNow();
    assert.equal((await list({ content_type: 'article', created__gte: '2025-01-01T00:10:00Z' })).total, 0);
    assert.deepEqual(await preparedNow(), unkept, 'with a filter the kept counts do not answer, it is counted and planned for its bound');
  });

  it('leave a transaction’s lists to kysely', async () => {
    const query = parseListQuery(assignmentListSpec, {});
    assert.equal(readElsewhere(storage.db, query).keptPlan, true);
    await storage.db.transaction().execute(async (trx) => {
      assert.deepEqual(readElsewhere(trx, query), {});
    });
  });
});
