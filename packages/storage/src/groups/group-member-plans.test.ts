/**
 * The groups a user is in (`GET /groups/?member=`) are read from group_users by the user, not
 * found by walking every live group and probing its members: groups have an index starting with
 * `deleted_at`, which SQLite without statistics takes for selective (docs/development.md, "Join
 * order on SQLite"). This test reads the plan SQLite picks (EXPLAIN, never a timing).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createLectern } from '@lectern/core';
import { KyselyStorage } from '../kysely-storage.ts';
import { openSqliteDatabase, openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';
import { recordPlans } from '../../../../test/helpers/sqlite-plans.ts';

describe('groups of a member plans: sqlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-member-plans-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the groups of a member through the membership index, whatever the number of groups', async () => {
    const file = join(dir, 'plans.db');
    const lectern = createLectern({ storage: await openSqliteStorage({ file }) });
    const ctx = lectern.context();
    const user = await lectern.users.create(ctx, { email: 'ada@example.com', name: 'Ada' });
    const groups = [];
    for (let g = 0; g < 30; g++) groups.push((await lectern.groups.create(ctx, { name: `Group ${g}` })).public_id);
    for (const id of groups.slice(0, 3)) await lectern.groups.changeMembership(ctx, id, 'member', 'add', { member_ids: [user.public_id] });
    await lectern.close();

    const raw = openSqliteDatabase({ file });
    const recorder = recordPlans(raw);
    const planned = createLectern({ storage: new KyselyStorage(recorder.db) });
    const page = await planned.groups.list(planned.context(), { member: user.public_id, ordering: 'name' });
    assert.deepEqual(
      page.data.map((group) => group.name),
      ['Group 0', 'Group 1', 'Group 2'],
    );
    const listed = recorder.sent.filter((entry) => /from "groups" as "g"/.test(entry.sql) && /"gm"/.test(entry.sql));
    assert.ok(listed.length > 0, 'the page query was sent');
    for (const query of listed) {
      const plan = recorder.planOf(query);
      assert.ok(
        plan.some((step) => /SEARCH gm USING COVERING INDEX group_users_user_idx \(user_id=\? AND relation=\?\)/.test(step)),
        plan.join('\n'),
      );
      assert.ok(!plan.some((step) => /^SCAN g\b|SEARCH g USING (COVERING )?INDEX \w*deleted/.test(step)), plan.join('\n'));
    }
    await planned.close();
  });
});
