/**
 * Completions per week on each database: assignments completed on chosen days (through the
 * service, with a clock set to each day) land in their ISO week; reopened, deleted and older ones
 * do not count; the user and group filters narrow the count. On SQLite, the plan: the index of
 * completions answers the unfiltered count alone (no read of the assignments table).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createLectern, randomIds, type Clock } from '@lectern/core';
import { KyselyStorage } from '../kysely-storage.ts';
import { openSqliteDatabase, openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';
import { openPostgresStorage } from '../postgres/open-postgres-storage.ts';
import { recordPlans } from '../../../../test/helpers/sqlite-plans.ts';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';

const dir = mkdtempSync(join(tmpdir(), 'lectern-weekly-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const DIALECTS: Array<{ name: string; open: () => Promise<KyselyStorage> }> = [
  { name: 'sqlite', open: () => openSqliteStorage({ file: join(dir, `weekly-${randomIds.uuid()}.db`) }) },
  ...(postgresServerUrl ? [{ name: 'postgres', open: async () => openPostgresStorage({ url: await freshPostgresDatabase() }) }] : []),
];

/** Saturday 28 November 2026: its week began on Monday the 23rd; the first of twelve on 7 September. */
const TODAY = '2026-11-28T12:00:00.000Z';

for (const dialect of DIALECTS) {
  describe(`completions per week: ${dialect.name}`, () => {
    it('counts each completion in the week of its day, and nothing reopened, deleted or older', async () => {
      let now = new Date(TODAY);
      const clock: Clock = { now: () => now };
      const lectern = createLectern({ storage: await dialect.open(), clock });
      const ctx = lectern.context();
      const [ada, bob] = [
        await lectern.users.create(ctx, { email: 'ada@example.com', name: 'Ada' }),
        await lectern.users.create(ctx, { email: 'bob@example.com', name: 'Bob' }),
      ];
      const team = await lectern.groups.create(ctx, { name: 'Team' });
      await lectern.groups.changeMembership(ctx, team.public_id, 'member', 'add', { member_ids: [bob.public_id] });
      let serial = 0;
      /** a new assignment completed at `when` */
      const completeAt = async (user: { public_id: string }, when: string) => {
        const item = await lectern.content.create(ctx, 'article', { name: `Article ${serial++}` });
        const { assignment } = await lectern.assignments.create(ctx, { user_id: user.public_id, content_item_id: item.public_id });
        now = new Date(when);
        await lectern.assignments.act(ctx, assignment.public_id, 'complete');
        now = new Date(TODAY);
        return assignment.public_id;
      };
      await completeAt(ada, '2026-11-28T08:00:00.000Z');
      await completeAt(bob, '2026-11-23T00:00:00.000Z');
      await completeAt(ada, '2026-11-22T23:59:59.999Z');
      await completeAt(bob, '2026-09-07T00:00:00.000Z');
      await completeAt(ada, '2026-09-06T23:59:59.999Z');
      const reopened = await completeAt(ada, '2026-11-24T10:00:00.000Z');
      await lectern.assignments.act(ctx, reopened, 'undo-complete');
      const deleted = await completeAt(bob, '2026-11-25T10:00:00.000Z');
      await lectern.assignments.delete(ctx, deleted);
      const open = await lectern.content.create(ctx, 'article', { name: 'Not finished' });
      await lectern.assignments.create(ctx, { user_id: ada.public_id, content_item_id: open.public_id });

      const all = await lectern.insights.get(ctx, 'weekly-completions', {});
      assert.ok('weeks' in all);
      assert.equal(all.weeks.length, 12);
      assert.deepEqual(all.weeks.at(-1), { week_start: '2026-11-23', count: 2 });
      assert.deepEqual(all.weeks.at(-2), { week_start: '2026-11-16', count: 1 });
      assert.deepEqual(all.weeks[0], { week_start: '2026-09-07', count: 1 });
      assert.equal(all.total, 4);

      const ofGroup = await lectern.insights.get(ctx, 'weekly-completions', { group_id: team.public_id });
      assert.ok('weeks' in ofGroup);
      assert.equal(ofGroup.total, 2, "Bob's completions in the weeks shown");
      assert.deepEqual(ofGroup.weeks.at(-1), { week_start: '2026-11-23', count: 1 });
      const ofAda = await lectern.insights.get(ctx, 'weekly-completions', { user_id: ada.public_id });
      assert.ok('weeks' in ofAda);
      assert.equal(ofAda.total, 2);
      await lectern.close();
    });

    if (dialect.name === 'sqlite') {
      it('counts from the index of completions alone', async () => {
        const file = join(dir, 'plans.db');
        const lectern = createLectern({ storage: await openSqliteStorage({ file }) });
        await lectern.close();
        const recorder = recordPlans(openSqliteDatabase({ file }));
        const planned = createLectern({ storage: new KyselyStorage(recorder.db) });
        await planned.insights.get(planned.context(), 'weekly-completions', {});
        const counted = recorder.sent.filter((entry) => /completed_datetime/.test(entry.sql));
        assert.equal(counted.length, 1, 'one query');
        const plan = recorder.planOf(counted[0]!);
        assert.ok(
          plan.some((step) => /SEARCH a USING COVERING INDEX assignments_completions \(state=\? AND completed_datetime>\?\)/.test(step)),
          plan.join('\n'),
        );
        await planned.close();
      });
    }
  });
}
