/**
 * The reminder sweep's marking (`markReminders`) on each database: batches walk open assignments
 * in (due date, row) order, each starting after the last one's final row, so a sweep reads each
 * row once; every assignment in range is marked exactly once; closed, deleted, undated and
 * out-of-range ones never are. On SQLite, the plan: a seek by due date from the position, not a
 * read of every outstanding assignment per batch (which made the first sweep over a million
 * assignments take minutes).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { randomIds } from '@lectern/core';
import type { ReminderPosition } from '@lectern/core/ports';
import type BetterSqlite3 from 'better-sqlite3';
import { KyselyStorage } from '../kysely-storage.ts';
import { openSqliteDatabase, openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';
import { openPostgresStorage } from '../postgres/open-postgres-storage.ts';
import { recordPlans } from '../../../../test/helpers/sqlite-plans.ts';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';
import { storedContentItem, storedUser } from '../../../../test/helpers/stored-rows.ts';

const dir = mkdtempSync(join(tmpdir(), 'lectern-reminders-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const DIALECTS: Array<{ name: string; open: () => Promise<KyselyStorage> }> = [
  { name: 'sqlite', open: () => openSqliteStorage({ file: join(dir, `sweep-${randomIds.uuid()}.db`) }) },
  ...(postgresServerUrl ? [{ name: 'postgres', open: async () => openPostgresStorage({ url: await freshPostgresDatabase() }) }] : []),
];

const stamp = '2026-01-01T00:00:00.000Z';
const BATCH = 500;

/**
 * Forty users, 31 items, and 1 200 open assignments due in the past (three to a day, in an order
 * unlike their rows'), beside ones the sweep must leave: completed, deleted, undated, due later.
 * Answers the public ids that must be marked.
 */
async function seed(storage: KyselyStorage): Promise<Set<string>> {
  const db = storage.db;
  const users = await db
    .insertInto('users')
    .values(
      Array.from({ length: 40 }, (_, n) =>
        storedUser({ public_id: randomIds.uuid(), email: `learner${n}@example.com`, name: `Learner ${n}`, date_joined: stamp }),
      ),
    )
    .returning('id')
    .execute();
  const items = await db
    .insertInto('content_items')
    .values(
      Array.from({ length: 31 }, () =>
        storedContentItem({
          public_id: randomIds.uuid(),
          name: 'Safety basics',
          is_self_assignable: 0,
          duration_minutes: 5,
          created: stamp,
        }),
      ),
    )
    .returning('id')
    .execute();
  const owed = new Set<string>();
  const row = (n: number, state: string, dueDate: string | null, deletedAt: string | null = null) => {
    const publicId = randomIds.uuid();
    return {
      public_id: publicId,
      // one live assignment per learner and item: row n is pair n
      user_id: users[n % 40]!.id,
      content_id: items[Math.floor(n / 40)]!.id,
      enrollment_id: null,
      state,
      progress: 0,
      progress_before_completion: null,
      score: null,
      is_success: null,
      due_date: dueDate,
      expires_at: null,
      started_at: null,
      completed_datetime: state === 'completed' ? stamp : null,
      dropped_at: null,
      exempted_at: null,
      feedback_rating: null,
      feedback_text: null,
      drop_reason: null,
      attempt: 1,
      created: stamp,
      modified: stamp,
      deleted_at: deletedAt,
    };
  };
  const rows = [];
  for (let n = 0; n < 1200; n++) {
    // later rows get earlier days, so row order and due-date order disagree
    const day = new Date(Date.UTC(2026, 0, 1) + (400 - Math.floor(n / 3)) * 86_400_000).toISOString().slice(0, 10);
    const open = row(n, n % 2 === 0 ? 'not_started' : 'in_progress', day);
    owed.add(open.public_id);
    rows.push(open);
  }
  // the last item's pairs: closed, deleted, undated, and due after the overdue range
  rows.push(row(1200, 'completed', '2026-02-01'), row(1201, 'not_started', '2026-02-01', stamp), row(1202, 'in_progress', null));
  rows.push(row(1203, 'not_started', '2027-06-01'));
  for (let i = 0; i < rows.length; i += 300)
    await db
      .insertInto('assignments')
      .values(rows.slice(i, i + 300))
      .execute();
  return owed;
}

/** One sweep as the mail worker runs it, each batch in its own transaction; answers each batch's marks. */
async function sweep(storage: KyselyStorage): Promise<Array<{ ids: string[]; next: ReminderPosition | null }>> {
  const batches = [];
  for (let after: ReminderPosition | null = null; ;) {
    const batch = await storage.transaction((tx) =>
      tx.notifications.markReminders({
        kind: 'assignment_overdue',
        from: null,
        to: '2027-03-01',
        now: new Date().toISOString(),
        limit: BATCH,
        after,
      }),
    );
    batches.push({ ids: batch.assignments.map((a) => a.assignment_public_id), next: batch.next });
    if (batch.assignments.length < BATCH) return batches;
    after = batch.next;
  }
}

for (const dialect of DIALECTS) {
  describe(`reminder sweep: ${dialect.name}`, () => {
    it('marks every open assignment in range once, batch after batch in due-date order, and nothing on the next sweep', async () => {
      const storage = await dialect.open();
      try {
        const owed = await seed(storage);
        const batches = await sweep(storage);
        assert.deepEqual(
          batches.map((batch) => batch.ids.length),
          [500, 500, 200],
        );
        const marked = batches.flatMap((batch) => batch.ids);
        assert.equal(new Set(marked).size, marked.length, 'an assignment marked twice');
        assert.deepEqual(new Set(marked), owed);
        // each batch's position is past the one before: the walk only goes forward
        const positions = batches.map((batch) => batch.next!);
        for (let i = 1; i < positions.length; i++) {
          const [a, b] = [positions[i - 1]!, positions[i]!];
          assert.ok(a.due_date < b.due_date || (a.due_date === b.due_date && a.id < b.id), JSON.stringify([a, b]));
        }
        const again = await sweep(storage);
        assert.deepEqual(again, [{ ids: [], next: null }]);
      } finally {
        await storage.close();
      }
    });

    it('answers what each message says: the learner, the item and the due date', async () => {
      const storage = await dialect.open();
      try {
        await seed(storage);
        const batch = await storage.transaction((tx) =>
          tx.notifications.markReminders({
            kind: 'assignment_due',
            from: '2027-03-02',
            to: '2027-12-31',
            now: stamp,
            limit: 10,
            after: null,
          }),
        );
        assert.equal(batch.assignments.length, 1);
        const [reminder] = batch.assignments;
        assert.equal(reminder!.content_name, 'Safety basics');
        assert.equal(reminder!.due_date, '2027-06-01');
        assert.deepEqual(Object.keys(reminder!).sort(), ['assignment_public_id', 'content_name', 'due_date', 'user_public_id']);
        assert.equal(batch.next!.due_date, '2027-06-01');
      } finally {
        await storage.close();
      }
    });
  });
}

describe('reminder sweep plan (SQLite)', () => {
  it('seeks open assignments by due date from the position, instead of reading every outstanding one', async () => {
    const file = join(dir, 'plan.db');
    await (await openSqliteStorage({ file })).close();
    const raw: BetterSqlite3.Database = openSqliteDatabase({ file });
    const plans = recordPlans(raw);
    const storage = new KyselyStorage(plans.db);
    try {
      await storage.transaction((tx) =>
        tx.notifications.markReminders({
          kind: 'assignment_overdue',
          from: null,
          to: '2027-03-01',
          now: stamp,
          limit: BATCH,
          after: { due_date: '2026-01-01', id: 7 },
        }),
      );
      const insert = plans.sent.find((query) => /insert into "assignment_reminders"/i.test(query.sql));
      assert.ok(insert, plans.sent.map((query) => query.sql).join('\n'));
      const plan = plans.planOf(insert).join('\n');
      // a seek into open assignments by due date, from the position on; not every outstanding row
      assert.match(plan, /SEARCH a USING (COVERING )?INDEX \w+ \([^)]*due_date>\?/, plan);
      assert.doesNotMatch(plan, /SCAN a\b/, plan);
    } finally {
      await plans.db.destroy();
    }
  });
});
