/**
 * A page of content items reads its access groups, tags and container items with one query each,
 * by the page's ids. SQLite has no planner statistics here (docs/scaling.md), so these plans are
 * the ones it picks at any size; this test reads them with EXPLAIN (never a timing) and fails when
 * a query starts from another table, which costs a probe per row of that table: reading the
 * groups from the live groups first took 25 ms a page at 5 000 groups, against 0.1 ms by the ids.
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

describe('content page plans: sqlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-content-plans-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("reads a page's groups, tags and items by the page's ids, whatever the number of groups", async () => {
    const file = join(dir, 'plans.db');
    const lectern = createLectern({ storage: await openSqliteStorage({ file }) });
    const ctx = lectern.context();
    const groups = [];
    for (let g = 0; g < 30; g++) groups.push((await lectern.groups.create(ctx, { name: `Group ${g}` })).public_id);
    const article = await lectern.content.create(ctx, 'article', { name: 'Article', groups: groups.slice(0, 2) });
    await lectern.content.changeTags(ctx, article.public_id, 'add', { tags: ['onboarding'] });
    await lectern.content.create(ctx, 'track', { name: 'Track', items: [article.public_id] });
    // SQLite's choice depends on the number of ids: from five on, it started from the groups
    for (let i = 0; i < 6; i++) await lectern.content.create(ctx, 'video', { name: `Video ${i}` });
    await lectern.close();

    const raw = openSqliteDatabase({ file });
    const recorder = recordPlans(raw);
    const planned = createLectern({ storage: new KyselyStorage(recorder.db) });
    const page = await planned.content.list(planned.context(), { ordering: 'name' });
    assert.deepEqual(
      page.data.slice(0, 2).map((item) => [item.name, item.groups.length, item.tags]),
      [
        ['Article', 2, ['onboarding']],
        ['Track', 0, []],
      ],
    );
    assert.equal(page.data.length, 8);
    const plan = (from: RegExp) => {
      const query = recorder.sent.find((entry) => from.test(entry.sql));
      assert.ok(query, `a query ${from} was sent`);
      return recorder.planOf(query);
    };
    // the first step of each reads the page's rows by their ids; every later one, by a key
    const [groupsFirst, ...groupsRest] = plan(/from "content_groups" as "cg"/);
    assert.match(groupsFirst!, /^SEARCH cg USING COVERING INDEX sqlite_autoindex_content_groups_1 \(content_id=\?\)/);
    assert.ok(
      groupsRest.some((step) => /^SEARCH g USING INTEGER PRIMARY KEY/.test(step)),
      groupsRest.join('\n'),
    );
    const [tagsFirst] = plan(/from "content_tags" as "ct"/);
    assert.match(tagsFirst!, /^SEARCH ct USING COVERING INDEX \w+ \(content_id=\?\)/);
    const [itemsFirst] = plan(/from "content_track_items" as "ti"/);
    assert.match(itemsFirst!, /^SEARCH ti USING (COVERING )?INDEX \w+ \(parent_id=\?\)/);
    await planned.close();
  });
});
