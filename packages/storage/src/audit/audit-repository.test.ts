/**
 * The audit store's part of the storage contract, on each dialect: entries commit and roll back
 * with the change, the list's filters and cursor pages over entries both staged and moved into the
 * indexed log, and pruning by age.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AuditRecorder, parseAuditQuery, randomIds, type Clock, type RequestContext, type Storage } from '@lectern/core';
import { openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';
import { openPostgresStorage } from '../postgres/open-postgres-storage.ts';
import type { KyselyStorage } from '../kysely-storage.ts';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';

const dir = mkdtempSync(join(tmpdir(), 'lectern-audit-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const DIALECTS: Array<{ name: string; open: () => Promise<Storage> }> = [
  { name: 'sqlite', open: () => openSqliteStorage({ file: join(dir, `audit-${files++}.db`) }) },
  ...(postgresServerUrl ? [{ name: 'postgres', open: async () => openPostgresStorage({ url: await freshPostgresDatabase() }) }] : []),
];

const userRow = (email: string) => ({
  publicId: randomIds.uuid(),
  email,
  name: email.split('@')[0]!,
  role: 'admin' as const,
  employeeId: null,
  managerId: null,
  isActive: true,
  dateJoined: new Date().toISOString(),
});

/** A clock the test moves, so entries have the times it says. */
const clockAt = (iso: string): Clock & { set(iso: string): void } => {
  let now = new Date(iso);
  return { now: () => now, set: (next) => (now = new Date(next)) };
};

for (const dialect of DIALECTS) {
  describe(`audit store: ${dialect.name}`, () => {
    it('commits an entry with its change and drops it when the transaction rolls back', async () => {
      const storage = await dialect.open();
      const audit = new AuditRecorder(clockAt('2026-03-01T10:00:00.000Z'), randomIds);
      const admin = await storage.transaction((tx) => tx.users.insert(userRow('admin@example.com')));
      const ctx: RequestContext = {
        actor: { kind: 'user', userId: admin.id, publicId: admin.view.public_id, role: 'admin', scopes: new Set() },
        requestId: 'req_kept',
      };
      await storage.transaction(async (tx) => {
        const user = await tx.users.insert(userRow('kept@example.com'));
        await audit.record(tx, ctx, 'user.created', user.view.public_id);
      });
      await assert.rejects(
        storage.transaction(async (tx) => {
          const user = await tx.users.insert(userRow('lost@example.com'));
          await audit.record(tx, { ...ctx, requestId: 'req_lost' }, 'user.created', user.view.public_id);
          throw new Error('boom');
        }),
        /boom/,
      );
      const page = (await storage.audit.list(parseAuditQuery({})))!;
      assert.equal(page.items.length, 1);
      const [entry] = page.items;
      assert.equal(entry!.request_id, 'req_kept');
      assert.deepEqual(entry!.actor, { public_id: admin.view.public_id, email: 'admin@example.com' });
      assert.deepEqual(entry!.resource.type, 'user');
      assert.equal(entry!.occurred_at, '2026-03-01T10:00:00.000Z');
      assert.equal(entry!.changes, null);
      assert.equal(entry!.token_public_id, null);
      await storage.close();
    });

    it('filters and pages newest first by cursor across staged and moved entries, and prunes by age', async () => {
      const storage = await dialect.open();
      const clock = clockAt('2026-01-01T00:00:00.000Z');
      const audit = new AuditRecorder(clock, randomIds);
      const system: RequestContext = { actor: { kind: 'system' }, requestId: 'req_cli' };
      const admin = await storage.transaction((tx) => tx.users.insert(userRow('filter@example.com')));
      const asAdmin: RequestContext = {
        actor: { kind: 'user', userId: admin.id, publicId: admin.view.public_id, role: 'admin', scopes: new Set() },
        requestId: 'req_admin',
      };
      const days = ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04', '2026-01-05'];
      const ids = async (params: Record<string, string>) =>
        (await storage.audit.list(parseAuditQuery(params)))!.items.map((e) => e.resource.public_id);
      for (const [i, day] of days.entries()) {
        clock.set(`${day}T12:00:00.000Z`);
        const changes = { name: { from: `n${i}`, to: `n${i + 1}` } };
        await storage.transaction((tx) =>
          audit.record(tx, i % 2 ? system : asAdmin, i % 2 ? 'group.updated' : 'user.updated', `r${i}`, changes),
        );
        // the first three are moved into the indexed log, the last two stay staged: every read
        // below spans both
        if (i === 2) {
          assert.deepEqual(await ids({}), ['r2', 'r1', 'r0']);
          assert.equal(await storage.audit.hasStaged(), true);
          // a batch takes the oldest, and what it leaves is still read
          assert.equal(await storage.transaction((tx) => tx.audit.settle(2)), 2);
          assert.equal(await storage.audit.hasStaged(), true);
          assert.deepEqual(await ids({}), ['r2', 'r1', 'r0']);
          assert.equal(await storage.transaction((tx) => tx.audit.settle(2)), 1);
          assert.equal(await storage.audit.hasStaged(), false);
          assert.equal(await storage.transaction((tx) => tx.audit.settle()), 0);
        }
      }
      assert.deepEqual(await ids({}), ['r4', 'r3', 'r2', 'r1', 'r0']);
      assert.deepEqual(await ids({ actor: admin.view.public_id }), ['r4', 'r2', 'r0']);
      assert.deepEqual(await ids({ action: 'group.updated' }), ['r3', 'r1']);
      assert.deepEqual(await ids({ resource_type: 'user' }), ['r4', 'r2', 'r0']);
      assert.deepEqual(await ids({ resource_id: 'r3' }), ['r3']);
      assert.deepEqual(await ids({ occurred_at__gte: '2026-01-02', occurred_at__lte: '2026-01-03' }), ['r2', 'r1']);
      assert.deepEqual(await ids({ actor: randomIds.uuid() }), []);

      const first = (await storage.audit.list(parseAuditQuery({ page_size: '2' })))!;
      assert.equal(first.hasMore, true);
      const second = (await storage.audit.list(parseAuditQuery({ page_size: '2', cursor: first.items[1]!.id })))!;
      const third = (await storage.audit.list(parseAuditQuery({ page_size: '2', cursor: second.items[1]!.id })))!;
      assert.deepEqual(
        [...first.items, ...second.items, ...third.items].map((e) => e.resource.public_id),
        ['r4', 'r3', 'r2', 'r1', 'r0'],
      );
      assert.equal(third.hasMore, false);
      assert.deepEqual(third.items[0]!.changes, { name: { from: 'n0', to: 'n1' } });
      assert.equal(await storage.audit.list(parseAuditQuery({ cursor: `aud_${'0'.repeat(26)}` })), null);

      assert.equal(await storage.transaction((tx) => tx.audit.settle()), 2);
      assert.deepEqual(await ids({}), ['r4', 'r3', 'r2', 'r1', 'r0'], 'the same entries once all are moved');
      assert.equal(await storage.audit.pruneBefore('2026-01-03T00:00:00.000Z', 1), 1);
      assert.equal(await storage.audit.pruneBefore('2026-01-03T00:00:00.000Z', 10), 1);
      assert.deepEqual(await ids({}), ['r4', 'r3', 'r2']);
      await storage.close();
    });
  });
}

if (postgresServerUrl) {
  describe('audit store: postgres, settling beside the writers', () => {
    it('moves committed entries while a writer holds the write lock, and two servers settling at once move each entry once', async () => {
      const url = await freshPostgresDatabase();
      const [one, two] = [await openPostgresStorage({ url }), await openPostgresStorage({ url })];
      const audit = new AuditRecorder(clockAt('2026-02-01T00:00:00.000Z'), randomIds);
      const system: RequestContext = { actor: { kind: 'system' }, requestId: 'req_settle' };
      await one.transaction((tx) =>
        audit.recordMany(
          tx,
          system,
          'user.created',
          Array.from({ length: 300 }, (_, i) => `r${i}`),
        ),
      );
      const unlocked = { withoutWriteLock: true };

      // a writer holds the lock with an entry not yet committed; the settle neither waits for it nor moves it
      let releaseWriter!: () => void;
      let writerStarted!: () => void;
      const started = new Promise<void>((resolve) => (writerStarted = resolve));
      const writer = one.transaction(async (tx) => {
        await audit.record(tx, system, 'user.created', 'late');
        writerStarted();
        await new Promise<void>((resolve) => (releaseWriter = resolve));
      });
      await started;
      assert.equal(await two.transaction((tx) => tx.audit.settle(1000), unlocked), 300);
      releaseWriter();
      await writer;

      // the late entry and a new batch, settled by both servers at once, in small batches
      await one.transaction((tx) =>
        audit.recordMany(
          tx,
          system,
          'user.created',
          Array.from({ length: 300 }, (_, i) => `s${i}`),
        ),
      );
      const settleAll = async (storage: KyselyStorage) => {
        let moved = 0;
        for (let batch = -1; batch !== 0; moved += batch) batch = await storage.transaction((tx) => tx.audit.settle(50), unlocked);
        return moved;
      };
      const [movedByOne, movedByTwo] = await Promise.all([settleAll(one), settleAll(two)]);
      assert.equal(movedByOne + movedByTwo + (await settleAll(one)), 301);
      assert.equal(await one.audit.hasStaged(), false);
      const entries = await one.db.selectFrom('audit_log').select(['resource_id']).execute();
      assert.equal(entries.length, 601);
      assert.equal(new Set(entries.map((entry) => entry.resource_id)).size, 601, 'no entry moved twice');
      await one.close();
      await two.close();
    });
  });
}
