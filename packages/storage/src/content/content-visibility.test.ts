/**
 * A learner's view of the catalogue rests on `content_items.has_access_groups`, which triggers on
 * `content_groups` keep (migration 0014): on both databases, the flag follows every way an item's
 * access groups change, and the learner sees exactly the items the rule in docs/content.md names.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createLectern } from '@lectern/core';
import { createLearner } from '../../../../test/helpers/learner.ts';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';
import type { KyselyStorage } from '../kysely-storage.ts';
import { openPostgresStorage } from '../postgres/open-postgres-storage.ts';
import { openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';

const dir = mkdtempSync(join(tmpdir(), 'lectern-visibility-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const DIALECTS: Array<{ name: string; open: () => Promise<KyselyStorage> }> = [
  { name: 'sqlite', open: () => openSqliteStorage({ file: join(dir, 'visibility.db') }) },
  ...(postgresServerUrl ? [{ name: 'postgres', open: async () => openPostgresStorage({ url: await freshPostgresDatabase() }) }] : []),
];

for (const dialect of DIALECTS) {
  describe(`content visibility: ${dialect.name}`, () => {
    it('keeps has_access_groups with the access groups, through the API and through SQL, and shows the learner what the rule allows', async () => {
      const storage = await dialect.open();
      const lectern = createLectern({ storage });
      const ctx = lectern.context();
      try {
        const learner = await createLearner(lectern, 'learner@example.com');
        const mine = await lectern.groups.create(ctx, { name: 'Mine' });
        const other = await lectern.groups.create(ctx, { name: 'Other' });
        await lectern.groups.changeMembership(ctx, mine.public_id, 'member', 'add', { member_ids: [learner.publicId] });

        const create = (name: string, groups: string[]) => lectern.content.create(ctx, 'article', { name, groups });
        const open = await create('open', []);
        const inMine = await create('in mine', [mine.public_id]);
        await create('in other', [other.public_id]);
        const inBoth = await create('in both', [mine.public_id, other.public_id]);

        const flags = async () => {
          const rows = await storage.db.selectFrom('content_items').select(['name', 'has_access_groups']).orderBy('id').execute();
          return Object.fromEntries(rows.map((row) => [row.name, Number(row.has_access_groups)]));
        };
        const seen = async () =>
          (await lectern.content.list(lectern.context(learner.actor), { ordering: 'name' })).data.map((item) => item.name);

        assert.deepEqual(await flags(), { open: 0, 'in mine': 1, 'in other': 1, 'in both': 1 });
        assert.deepEqual(await seen(), ['in both', 'in mine', 'open']);

        // through the API: an item loses its groups, another gains one
        await lectern.content.update(ctx, inMine.public_id, { groups: [] });
        await lectern.content.update(ctx, open.public_id, { groups: [other.public_id] });
        assert.deepEqual(await flags(), { open: 1, 'in mine': 0, 'in other': 1, 'in both': 1 });
        assert.deepEqual(await seen(), ['in both', 'in mine']);

        // through SQL: the flag drops only when the last group goes
        const bothId = (
          await storage.db.selectFrom('content_items').select('id').where('public_id', '=', inBoth.public_id).executeTakeFirstOrThrow()
        ).id;
        const otherId = (
          await storage.db.selectFrom('groups').select('id').where('public_id', '=', other.public_id).executeTakeFirstOrThrow()
        ).id;
        await storage.db.deleteFrom('content_groups').where('content_id', '=', bothId).where('group_id', '=', otherId).execute();
        assert.equal((await flags())['in both'], 1);
        await storage.db.deleteFrom('content_groups').where('content_id', '=', bothId).execute();
        assert.equal((await flags())['in both'], 0);
        assert.deepEqual(await seen(), ['in both', 'in mine']);

        // a deleted group keeps its items restricted: they do not become public
        await lectern.content.update(ctx, inMine.public_id, { groups: [mine.public_id] });
        await lectern.groups.delete(ctx, mine.public_id);
        assert.equal((await flags())['in mine'], 1);
        assert.deepEqual(await seen(), ['in both']);
      } finally {
        await lectern.close();
      }
    });
  });
}
