/**
 * An export reads a list batch by batch (core's shared/list-batch.ts) and must write every row of
 * it once, in the list's order. On PostgreSQL the batches after the first come from one cursor
 * (postgres/export-cursor.ts), a snapshot taken at the second batch; past the number of cursors a
 * process may hold, and on SQLite, each batch is a keyset query after the last one's final row.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { createLectern, inListBatch, randomIds, type ListBatch, type Lectern } from '@lectern/core';
import { openSqliteStorage } from '../sqlite/open-sqlite-storage.ts';
import { exportCursorLimit, openPostgresStorage } from '../postgres/open-postgres-storage.ts';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';

const dir = mkdtempSync(join(tmpdir(), 'lectern-export-batches-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const USERS = 1234;
const BATCH = 100;

const DIALECTS: Array<{ name: string; url?: () => Promise<string>; open: (url: string) => Promise<Lectern> }> = [
  { name: 'sqlite', open: async (file) => createLectern({ storage: await openSqliteStorage({ file }) }) },
  ...(postgresServerUrl
    ? [
        {
          name: 'postgres',
          url: () => freshPostgresDatabase(),
          open: async (url: string) => createLectern({ storage: await openPostgresStorage({ url }) }),
        },
      ]
    : []),
];

const userRow = (n: number) => ({
  publicId: randomIds.uuid(),
  email: `u${n}@example.com`,
  // names repeat, so the order within a name is the tiebreak's; every seventh has no employee id
  name: `Name ${n % 37}`,
  role: 'user' as const,
  employeeId: n % 7 === 0 ? null : `E${n % 101}`,
  managerId: null,
  isActive: true,
  dateJoined: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
});

type Listed = { data: Array<{ public_id: string }> };

/** The list read as an export reads it: batch after batch until one comes back short. */
async function batches(lectern: Lectern, query: Record<string, string>, between?: (n: number, batch: ListBatch) => Promise<void>) {
  const batch: ListBatch = { size: BATCH, after: null, next: null, taken: false, read: false };
  const ids: string[] = [];
  const held: boolean[] = [];
  try {
    for (let n = 0; ; n++) {
      const page = (await inListBatch(batch, () => lectern.users.list(lectern.context(), { ...query }))) as Listed;
      assert.ok(batch.read, 'storage read the batch');
      ids.push(...page.data.map((user) => user.public_id));
      held.push(batch.held !== undefined);
      if (page.data.length < BATCH || batch.next === null) break;
      await between?.(n, batch);
      batch.after = batch.next;
    }
  } finally {
    await batch.held?.close();
  }
  return { ids, held };
}

/** The list read page by page, as a client would. */
async function pages(lectern: Lectern, query: Record<string, string>) {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const listed = (await lectern.users.list(lectern.context(), { ...query, page: String(page), page_size: '100' })) as Listed;
    ids.push(...listed.data.map((user) => user.public_id));
    if (listed.data.length < 100) return ids;
  }
}

for (const dialect of DIALECTS) {
  describe(`export batches: ${dialect.name}`, () => {
    const target = async () => (dialect.url ? dialect.url() : join(dir, `${dialect.name}-${randomIds.uuid()}.db`));
    const seeded = async () => {
      const at = await target();
      const lectern = await dialect.open(at);
      await lectern.storage.transaction(async (tx) => {
        await tx.users.insertMany(Array.from({ length: USERS }, (_, n) => userRow(n)));
      });
      return { at, lectern };
    };

    it('writes every row once, in the order of its pages, in each direction and on a nullable key', async () => {
      const { lectern } = await seeded();
      try {
        for (const ordering of ['name', '-name', 'employee_id', '-employee_id', '-date_joined']) {
          const { ids, held } = await batches(lectern, { ordering });
          assert.equal(ids.length, USERS, ordering);
          assert.deepEqual(ids, await pages(lectern, { ordering }), ordering);
          // PostgreSQL holds the rest open from the second batch on; SQLite reads keyset batches
          assert.deepEqual(
            held,
            held.map((_, n) => dialect.name === 'postgres' && n > 0),
            `${ordering}: where the batches came from`,
          );
        }
      } finally {
        await lectern.close();
      }
    });

    it('on PostgreSQL, reads the rows after the first batch as one snapshot; on SQLite, as each batch finds them', async () => {
      const { lectern } = await seeded();
      try {
        // a user added mid-export sorts last: a keyset batch finds it, a cursor's snapshot does not
        const { ids } = await batches(lectern, { ordering: 'date_joined' }, async (n) => {
          if (n === 2) await lectern.storage.transaction((tx) => tx.users.insert(userRow(USERS)));
        });
        assert.equal(ids.length, dialect.name === 'postgres' ? USERS : USERS + 1);
        assert.equal(new Set(ids).size, ids.length, 'no row twice');
      } finally {
        await lectern.close();
      }
    });

    if (dialect.name !== 'postgres') return;
    it('holds at most a fifth of the pool in cursors: further exports read keyset batches, and a closed cursor lets its connection go', async () => {
      const { at, lectern } = await seeded();
      const admin = new pg.Client({ connectionString: at });
      await admin.connect();
      // the cursors' connections: each inside its read-only transaction between two batches, idle
      // or reading the next batch ahead of the export
      const openCursors = async () =>
        Number(
          (
            await admin.query<{ n: string }>(
              `select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
                 and state in ('idle in transaction', 'active')`,
            )
          ).rows[0]!.n,
        );
      const limit = exportCursorLimit(10);
      const exports = Array.from(
        { length: limit + 1 },
        () => ({ size: BATCH, after: null, next: null, taken: false, read: false }) as ListBatch,
      );
      try {
        const expected = await pages(lectern, { ordering: 'email' });
        const read = exports.map(() => [] as string[]);
        // every export past its first batch, side by side
        for (let round = 0; round < 2; round++) {
          for (const [n, batch] of exports.entries()) {
            if (round > 0) batch.after = batch.next;
            const page = (await inListBatch(batch, () => lectern.users.list(lectern.context(), { ordering: 'email' }))) as Listed;
            read[n]!.push(...page.data.map((user) => user.public_id));
          }
        }
        assert.deepEqual(
          exports.map((batch) => batch.held !== undefined),
          exports.map((_, n) => n < limit),
        );
        assert.equal(await openCursors(), limit);
        // the first is closed before its end: its next read fails rather than end the export short
        const [first] = exports;
        const cut = first!.held!;
        await cut.close();
        await assert.rejects(cut.read(BATCH), /closed before the end/);
        assert.equal(await openCursors(), limit - 1);
        // the others read to their end, cursor or keyset, each the whole list in order
        for (const [n, batch] of exports.entries()) {
          if (n === 0) continue;
          for (;;) {
            batch.after = batch.next;
            const page = (await inListBatch(batch, () => lectern.users.list(lectern.context(), { ordering: 'email' }))) as Listed;
            read[n]!.push(...page.data.map((user) => user.public_id));
            if (page.data.length < BATCH) break;
          }
          assert.deepEqual(read[n], expected, `export ${n}`);
        }
        // a cursor read to its end gives its connection back without being closed
        assert.equal(await openCursors(), 0);
      } finally {
        for (const batch of exports) await batch.held?.close();
        await admin.end();
        await lectern.close();
      }
    });
  });
}
