/**
 * One-time sign-in links on each database: a code is consumed once, never after it expires, and
 * two exchanges racing with one code cannot both succeed. Through the core with a clock the test
 * drives, so the 10 minutes and the 12-hour token are checked without waiting.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createLectern, isLecternError, type Clock, type Storage } from '@lectern/core';
import type { KyselyStorage } from '../kysely-storage.ts';
import { openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';
import { openPostgresStorage } from '../postgres/open-postgres-storage.ts';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';

const dir = mkdtempSync(join(tmpdir(), 'lectern-sign-in-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const DIALECTS: Array<{ name: string; open: () => Promise<Storage> }> = [
  { name: 'sqlite', open: () => openSqliteStorage({ file: join(dir, `links-${files++}.db`) }) },
  ...(postgresServerUrl ? [{ name: 'postgres', open: async () => openPostgresStorage({ url: await freshPostgresDatabase() }) }] : []),
];

/** A clock that stands still until the test moves it. */
class TestClock implements Clock {
  private at = Date.parse('2026-11-25T10:00:00.000Z');
  now = () => new Date(this.at);
  advance(ms: number): void {
    this.at += ms;
  }
}

const refusedOnCode = (error: unknown) => isLecternError(error) && error.code === 'validation_error' && Boolean(error.fieldErrors?.code);

for (const dialect of DIALECTS) {
  describe(`sign-in links: ${dialect.name}`, () => {
    async function setUp() {
      const clock = new TestClock();
      const lectern = createLectern({ storage: await dialect.open(), clock });
      const { user } = (await lectern.bootstrapAdmin({ email: 'admin@example.com', name: 'Admin' }))!;
      const record = (await lectern.users.findByEmail(user.email))!;
      return { clock, lectern, record };
    }

    it('exchanges a code once for a 12-hour token of its user', async () => {
      const { clock, lectern, record } = await setUp();
      try {
        const link = await lectern.signInLinks.issue(record);
        assert.equal(link.expires_at, '2026-11-25T10:10:00.000Z');
        clock.advance(9 * 60_000);
        const exchanged = await lectern.signInLinks.exchange({ code: link.code });
        assert.equal(exchanged.expires_at, '2026-11-25T22:09:00.000Z');
        const actor = await lectern.tokens.authenticate(exchanged.token);
        assert.equal(actor.kind === 'user' && actor.userId, record.id);
        await assert.rejects(lectern.signInLinks.exchange({ code: link.code }), refusedOnCode);
      } finally {
        await lectern.close();
      }
    });

    it('refuses a code after its 10 minutes, and forgets expired links when the next one is issued', async () => {
      const { clock, lectern, record } = await setUp();
      try {
        const link = await lectern.signInLinks.issue(record);
        clock.advance(10 * 60_000);
        await assert.rejects(lectern.signInLinks.exchange({ code: link.code }), refusedOnCode);
        clock.advance(1);
        await lectern.signInLinks.issue(record);
        // the expired link is gone; only the new one is left
        const rows = await (lectern.storage as KyselyStorage).db.selectFrom('sign_in_links').select('expires_at').execute();
        assert.deepEqual(rows, [{ expires_at: '2026-11-25T10:20:00.001Z' }]);
      } finally {
        await lectern.close();
      }
    });

    it('lets only one of two exchanges racing with the same code through', async () => {
      const { lectern, record } = await setUp();
      try {
        const link = await lectern.signInLinks.issue(record);
        const outcomes = await Promise.allSettled([
          lectern.signInLinks.exchange({ code: link.code }),
          lectern.signInLinks.exchange({ code: link.code }),
        ]);
        assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 1);
        const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
        assert.ok(refusedOnCode(refused.reason));
      } finally {
        await lectern.close();
      }
    });

    it('signs no deactivated user in', async () => {
      const { lectern } = await setUp();
      try {
        const other = await lectern.users.create(lectern.context(), { email: 'leaver@example.com', name: 'Leaver', role: 'user' });
        const leaver = (await lectern.users.findByEmail(other.email))!;
        const link = await lectern.signInLinks.issue(leaver);
        await lectern.users.update(lectern.context(), other.public_id, { is_active: false });
        await assert.rejects(lectern.signInLinks.exchange({ code: link.code }), refusedOnCode);
        await assert.rejects(lectern.signInLinks.issue((await lectern.users.findByEmail(other.email))!), /deactivated/);
      } finally {
        await lectern.close();
      }
    });
  });
}
