/**
 * The plans of the assignment list's queries, filter by filter, and of saved reports, which run as
 * the list query with one more condition. These tests read SQLite's plan for the queries a request
 * actually sends (captured from kysely's log) over a table of 200 000 assignments, and fail when a
 * query leaves its index for a scan of the table or a sort of every row.
 *
 * Lectern gathers no planner statistics on SQLite (docs/scaling.md, "Planner statistics and query
 * plans"): the plans are SQLite's defaults, the same on this small table as on a million rows,
 * except where the list names the index itself from the totals it keeps (shared/index-hint.ts).
 * The first test checks that nothing gathered statistics.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { assignmentListSpec, compileRql, parseListQuery, reportResourceDefinitions } from '@lectern/core';
import { type ListNarrowing } from '@lectern/core/ports';
import { KyselyStorage } from '../kysely-storage.ts';
import { recountAssignments } from './assignment-counts.ts';
import { assignmentResource } from './assignment-resource.ts';
import type { Database } from '../schema.ts';
import { openSqliteDatabase, openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';
import { recordPlans, type PlanRecorder } from '../../../../test/helpers/sqlite-plans.ts';

const USERS = 10_000;
const CONTENT = 200;
const PER_USER = 20;
const TODAY = '2026-06-01';

describe('assignment query plans', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-plans-'));
  const file = join(dir, 'plans.db');
  let raw: BetterSqlite3.Database;
  let db: Kysely<Database>;
  let recorder: PlanRecorder;
  let storage: KyselyStorage;

  before(async () => {
    await (await openSqliteStorage({ file })).close();
    // seeded in SQL: the point is the plan over a realistic table, not the write path
    const seeding = openSqliteDatabase({ file });
    seeding.exec(`
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${USERS})
      INSERT INTO users (public_id, email, email_lower, name, role, is_active, date_joined, modified)
        SELECT printf('00000000-0000-4000-8000-%012d', i), 'u' || i || '@Example.com', 'u' || i || '@example.com', 'User ' || i,
               'user', 1, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z' FROM n;
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${CONTENT})
      INSERT INTO content_items (public_id, content_type, name, is_hidden, is_completable, is_self_assignable, duration_minutes, created, modified)
        SELECT printf('10000000-0000-4000-8000-%012d', i), CASE i % 2 WHEN 0 THEN 'article' ELSE 'video' END, 'Item ' || i, 0, 1, 1, 0,
               '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z' FROM n;
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${USERS * PER_USER - 1})
      INSERT INTO assignments (public_id, user_id, content_id, state, progress, attempt, due_date, created, modified)
        SELECT printf('20000000-0000-4000-8000-%012d', i), 1 + i / ${PER_USER}, 1 + ((i / ${PER_USER}) * 7 + (i % ${PER_USER}) * 9) % ${CONTENT},
               CASE i % 3 WHEN 0 THEN 'completed' ELSE 'not_started' END, 0, 1,
               CASE WHEN i / ${PER_USER} >= 100 AND i % 2 = 1 THEN date('2026-01-01', '+' || (i % 300) || ' days') END,
               strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', '+' || i || ' seconds'), '2025-01-01T00:00:00.000Z' FROM n;
    `);
    seeding.close();
    raw = openSqliteDatabase({ file });
    recorder = recordPlans(raw);
    db = recorder.db;
    storage = new KyselyStorage(db);
    await recountAssignments(db);
  });
  after(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs an assignments list (with a report's expression, if any) and returns the page and the plans of the queries it sent. */
  async function runReport(expression: string, params: Record<string, string> = {}) {
    const narrowing: ListNarrowing = expression ? { rql: compileRql(expression, reportResourceDefinitions.assignments!.catalogue) } : {};
    recorder.clear();
    const page = await storage.assignments.list(parseListQuery(assignmentListSpec, params), { ownerId: null, today: TODAY, ...narrowing });
    // the statements that read assignments (the kept totals read small tables of their own)
    const plans = recorder.sent
      .filter(({ sql: text }) => /from "assignments" as "a"/.test(text))
      .map((query) => recorder.planOf(query).join('\n'));
    return { page, plans };
  }

  /** The same list's total from a COUNT of the rows, leaving the kept totals and index hints aside. */
  async function countedTotal(params: Record<string, string>, expression = '') {
    const query = parseListQuery(assignmentListSpec, params);
    const live = db.selectFrom('assignments as a').where('a.deleted_at', 'is', null);
    const narrowing: ListNarrowing = expression ? { rql: compileRql(expression, reportResourceDefinitions.assignments!.catalogue) } : {};
    return (await assignmentResource.page(db, live, query, narrowing, { today: TODAY })).total;
  }

  it("runs on SQLite's default plans: nothing gathered statistics", () => {
    const stat = raw.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name LIKE 'sqlite_stat%'").get() as { n: number };
    assert.equal(stat.n, 0);
  });

  const USER = '00000000-0000-4000-8000-000000004242';
  const CONTENT_ITEM = '10000000-0000-4000-8000-000000000007';
  /** the rows of a creation bound's day before it, or up to it, counted through the creation index */
  const DAY_RANGE = /assignments_created_idx \(created>\? AND created<\?\)/;
  /**
   * Every filter the list takes, with the index its count and its page must each go through; a
   * count of `kept` comes from the totals kept per write, and no COUNT reads assignments. `day`:
   * for a creation range, the index the rows of its bound's day are counted through, or `none`.
   */
  const filters: Array<{ params: Record<string, string>; count: RegExp | 'kept'; page: RegExp; day?: RegExp | 'none' }> = [
    { params: {}, count: 'kept', page: /SCAN a USING INDEX assignments_created_idx/ },
    { params: { state: 'completed' }, count: 'kept', page: /SCAN a USING INDEX assignments_created_idx/ },
    { params: { user: USER }, count: /assignments_pair_idx \(user_id=\?\)/, page: /assignments_pair_idx \(user_id=\?\)/ },
    { params: { content_item: CONTENT_ITEM }, count: 'kept', page: /assignments_content_created_idx \(content_id=\?\)/ },
    { params: { content_type: 'video' }, count: 'kept', page: /SCAN a USING INDEX assignments_created_idx/ },
    { params: { is_overdue: 'true' }, count: 'kept', page: /SCAN a USING INDEX assignments_created_idx/ },
    { params: { due_date__gte: '2026-05-01' }, count: /assignments_due_date_idx \(due_date>\?\)/, page: /assignments_created_idx/ },
    { params: { due_date__lte: '2026-05-01' }, count: /assignments_due_date_idx \(due_date<\?\)/, page: /assignments_created_idx/ },
    // the counts kept per day of creation, and the rows of the bound's own day (createdRangeTotal)
    { params: { created__gte: '2025-01-02T06:00:00Z' }, count: 'kept', page: /assignments_created_idx \(created>\?\)/, day: DAY_RANGE },
    { params: { created__lte: '2025-01-02T06:00:00Z' }, count: 'kept', page: /assignments_created_idx \(created<\?\)/, day: DAY_RANGE },
    // at midnight: no rows of the day before the bound, and only the bound's instant up to it
    { params: { created__gte: '2025-01-02T00:00:00Z' }, count: 'kept', page: /assignments_created_idx \(created>\?\)/, day: 'none' },
    {
      params: { created__lte: '2025-01-02T00:00:00Z' },
      count: 'kept',
      page: /assignments_created_idx \(created<\?\)/,
      day: /assignments_created_idx \(created=\?\)/,
    },
  ];
  for (const { params, count, page, day } of filters) {
    for (const ordering of [undefined, '-created']) {
      const query = { ...params, ...(ordering ? { ordering } : {}) };
      it(`lists ?${new URLSearchParams(query).toString() || '(no filter)'} through its index`, async () => {
        const { page: result, plans } = await runReport('', query);
        assert.equal(result.total, await countedTotal(query), 'the exact total');
        const [countPlan, pagePlan] = count === 'kept' ? [undefined, plans[0]] : plans;
        assert.equal(plans.length, count === 'kept' ? 1 : 2, count === 'kept' ? 'a page only' : 'a count and a page');
        if (countPlan !== undefined) assert.match(countPlan, count as RegExp, countPlan);
        assert.match(pagePlan!, page, pagePlan);
        for (const plan of plans) assert.doesNotMatch(plan, /SCAN a(?! USING)/, `no scan of the assignments table: ${plan}`);
        // only a filter that keeps few rows (a user's 20, an item's 1 000) sorts what it matches;
        // the others walk an index in the page's order and stop at the page's end
        if (!('user' in params || 'content_item' in params)) assert.doesNotMatch(pagePlan!, /TEMP B-TREE/, pagePlan);
        // a creation range's kept total counts the rows of its bound's day through the index, not the range's
        const dayTotals = recorder.sent.filter(({ sql: text }) => /assignment_created_totals/.test(text));
        assert.equal(dayTotals.length, day === undefined ? 0 : 1);
        for (const query of dayTotals) {
          const plan = recorder.planOf(query).join('\n');
          if (day === 'none') assert.doesNotMatch(plan, /assignments_created_idx/, plan);
          else assert.match(plan, day!, plan);
          assert.doesNotMatch(plan, /SCAN assignments/, plan);
        }
      });
    }
  }

  it('keeps every total of a filter, a pair and a deeper page exact', async () => {
    const cases: Array<Record<string, string>> = [
      { state: 'not_started,in_progress' },
      { state: 'completed', content_type: 'video' },
      { state: 'completed', is_overdue: 'true' },
      { state: 'not_started', is_overdue: 'false' },
      { content_type: 'article', is_overdue: 'false' },
      { content_item: CONTENT_ITEM, state: 'not_started' },
      { content_type: 'video', page: '40', page_size: '100' },
    ];
    for (const params of cases) {
      const { page } = await runReport('', params);
      assert.equal(page.total, await countedTotal(params), new URLSearchParams(params).toString());
    }
  });

  it('lists two filters at once through one of their indexes', async () => {
    const pairs: Array<[Record<string, string>, RegExp]> = [
      [{ state: 'completed', content_type: 'video' }, /assignments_created_idx/],
      [{ user: USER, state: 'completed' }, /assignments_pair_idx/],
      [{ content_item: CONTENT_ITEM, state: 'completed' }, /assignments_(content_created|state_created)_idx/],
      [{ content_item: CONTENT_ITEM, is_overdue: 'true' }, /assignments_content_created_idx/],
      [{ state: 'completed', created__gte: '2025-01-02T00:00:00Z' }, /assignments_(state_)?created_idx \((state=\? AND )?created>\?\)/],
      [{ state: 'not_started', due_date__lte: '2026-05-01' }, /assignments_(overdue|created)_idx/],
      [{ content_type: 'video', is_overdue: 'true' }, /assignments_created_idx/],
    ];
    for (const [params, index] of pairs) {
      const { page, plans } = await runReport('', params);
      assert.equal(page.total, await countedTotal(params), new URLSearchParams(params).toString());
      for (const plan of plans) {
        assert.match(plan, index, plan);
        assert.doesNotMatch(plan, /SCAN a(?! USING)/, plan);
      }
    }
  });

  it('starts a user.email report from the user, through indexes only', async () => {
    const { page, plans } = await runReport("eq(user.email,'u4242@Example.com')");
    assert.equal(page.total, PER_USER);
    assert.ok(page.items.every((record) => record.data.user.email === 'u4242@Example.com'));
    assert.equal(plans.length, 1, "the page only: the total adds up the user's kept count");
    for (const plan of plans) {
      assert.match(plan, /SEARCH u USING (COVERING )?INDEX users_email_idx \(email=\?\)/, plan);
      assert.match(plan, /SEARCH a USING INDEX assignments_pair_idx \(user_id=\?\)/, plan);
      assert.doesNotMatch(plan, /SCAN a\b/, plan);
    }
  });

  it('uses the folded email index for ilike without a wildcard', async () => {
    const { page, plans } = await runReport('ilike(user.email,U77@EXAMPLE.COM),ne(state,dropped)');
    assert.equal(page.total, PER_USER);
    for (const plan of plans) {
      // the unique index of users.email_lower, the email folded as ilike folds it
      assert.match(plan, /SEARCH u USING (COVERING )?INDEX \w+ \(email_lower=\?\)/, plan);
      assert.match(plan, /SEARCH a USING INDEX assignments_pair_idx \(user_id=\?\)/, plan);
    }
  });

  it('keeps the list filters and the list order in the same query', async () => {
    const { page, plans } = await runReport("in(user.email,('u1@Example.com','u2@Example.com'))", {
      is_overdue: 'false',
      ordering: '-created',
    });
    assert.equal(page.total, 2 * PER_USER);
    assert.deepEqual(
      page.items.map((record) => record.data.created),
      [...page.items.map((record) => record.data.created)].sort().reverse(),
    );
    for (const plan of plans) assert.match(plan, /SEARCH a USING INDEX assignments_pair_idx \(user_id=\?\)/, plan);
  });

  it('adds no join to a count the report does not need', async () => {
    // ne is no list filter, so this report is counted
    const { page, plans } = await runReport('ne(state,not_started)');
    assert.equal(plans.length, 2, 'a count and a page');
    assert.equal(page.total, Math.ceil((USERS * PER_USER) / 3));
    assert.doesNotMatch(plans[0]!, /\bu\b|\bc\b/, `the count reads neither users nor content: ${plans[0]}`);
    const { plans: unnarrowed } = await runReport('');
    assert.equal(unnarrowed.length, 1, 'without a report, the kept total replaces the count: only the page reads assignments');
  });

  it('starts a report that names a user and a state from the user', async () => {
    for (const expression of [
      'ilike(user.email,U77@EXAMPLE.COM),eq(state,completed)',
      "in(user.email,('u1@Example.com','u2@Example.com')),state=completed",
    ]) {
      const { page, plans } = await runReport(expression);
      assert.equal(page.total, await countedTotal({}, expression), expression);
      assert.ok(page.total > 0, expression);
      assert.equal(plans.length, 2, 'a count and a page');
      for (const plan of plans) assert.match(plan, /SEARCH a USING INDEX assignments_pair_idx \(user_id=\?\)/, `${expression}: ${plan}`);
    }
  });

  it('answers the total of a report of list filters from the kept counts, and walks the order for its page', async () => {
    const expressions = [
      'in(content_item.content_type,(video,article)),state=completed',
      'eq(is_overdue,true),in(state,(not_started,in_progress))',
      'eq(is_overdue,false),content_item.content_type=video',
      `eq(content_item.public_id,${CONTENT_ITEM}),ne(state,dropped)`,
    ];
    for (const expression of expressions.slice(0, 3)) {
      const { page, plans } = await runReport(expression);
      assert.equal(page.total, await countedTotal({}, expression), expression);
      assert.equal(plans.length, 1, `${expression}: only the page reads assignments`);
      assert.match(plans[0]!, /SCAN a USING INDEX assignments_created_idx/, `${expression}: ${plans[0]}`);
      assert.doesNotMatch(plans[0]!, /TEMP B-TREE/, `${expression}: ${plans[0]}`);
    }
    // ne is no list filter: counted, as any report
    const { page, plans } = await runReport(expressions[3]!);
    assert.equal(page.total, await countedTotal({}, expressions[3]!));
    assert.equal(plans.length, 2, 'a count and a page');
    // the list's own filter and the report's on the same field: counted
    const both = await runReport('eq(state,completed)', { state: 'not_started' });
    assert.equal(both.page.total, 0);
  });

  it("runs the benchmark's broad reports through an index of assignments", async () => {
    for (const expression of ['in(content_item.content_type,(video,guide)),state=in_progress', 'ilike(user.email,*@example.com)']) {
      const { plans } = await runReport(expression);
      for (const plan of plans) assert.doesNotMatch(plan, /SCAN a(?! USING)/, `${expression}: ${plan}`);
    }
  });

  it("counts a report on the user's fields alone from the users' kept counts", async () => {
    for (const expression of [
      'ilike(user.email,*@example.com)',
      'ilike(user.email,U1*)',
      'or(eq(user.email,u5@Example.com),like(user.name,User 7*))',
      'not(ilike(user.email,*7@example.com))',
    ]) {
      const { page, plans } = await runReport(expression);
      assert.equal(page.total, await countedTotal({}, expression), expression);
      assert.ok(page.total > 0, expression);
      assert.equal(plans.length, 1, `${expression}: only the page reads assignments`);
    }
    const withFilter = await runReport('ilike(user.email,U1*)', { state: 'completed' });
    assert.equal(withFilter.page.total, await countedTotal({ state: 'completed' }, 'ilike(user.email,U1*)'), 'with a list filter: counted');
    assert.equal(withFilter.plans.length, 2, 'a count and a page');
  });
});
