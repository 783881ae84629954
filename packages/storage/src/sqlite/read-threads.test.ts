import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLectern, inListBatch, type Lectern, type ListBatch } from '@lectern/core';
import { READ_AHEAD_BATCHES } from '../listing/read-ahead.ts';
import { openSqliteStorage } from './open-sqlite-storage.ts';
import { runReadThread, startReadThreads, type ReadThreads } from './read-threads.ts';

// the read threads load this file too: there it serves reads and defines no tests
if (!runReadThread()) {
  describe('SQLite read threads', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-read-threads-'));
    const file = join(dir, 'lectern.db');
    let threads: ReadThreads;
    let offloaded: string[];
    let withThreads: Lectern;
    let withoutThreads: Lectern;
    /** a read's rows, made from every piece when they come in pieces */
    const rowsRead = async (sql: string, parameters: readonly unknown[]) => {
      const rows = await threads.read(sql, parameters);
      return Array.isArray(rows) ? rows : rows.pieces.flatMap((piece) => piece());
    };

    before(async () => {
      withoutThreads = createLectern({ storage: await openSqliteStorage({ file }) });
      const ctx = withoutThreads.context();
      for (const [email, name] of [
        ['ada@example.com', 'Ada Lovelace'],
        ['grace@example.com', 'Grace Hopper'],
        ['adele@example.com', 'Adèle Dupont'],
        ['alan@example.com', 'Alan Turing'],
      ]) {
        await withoutThreads.users.create(ctx, { email: email!, name: name! });
      }
      // a thread loads a script file, and this one is TypeScript: a small one registers tsx first
      const boot = join(dir, 'read-thread.mjs');
      writeFileSync(
        boot,
        `import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};\nregister();\nawait import(${JSON.stringify(import.meta.url)});\n`,
      );
      threads = await startReadThreads(boot, file, 1, ['--conditions=source']);
      offloaded = [];
      const offloadRead = (sql: string, parameters: readonly unknown[]) => {
        offloaded.push(sql);
        return threads.read(sql, parameters);
      };
      withThreads = createLectern({ storage: await openSqliteStorage({ file, offloadRead }) });
    });
    after(async () => {
      await withThreads.close();
      await withoutThreads.close();
      await threads.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('reads a search there, count and page, with the same answer as on the request thread', async () => {
      for (const query of [
        { search: 'ad' },
        { search: 'ADE', ordering: '-name' },
        { search: 'nobody' },
        { search: 'a', page_size: '2', page: '2' },
      ]) {
        offloaded.length = 0;
        const there = await withThreads.users.list(withThreads.context(), query);
        const here = await withoutThreads.users.list(withoutThreads.context(), query);
        assert.deepEqual(there, here, JSON.stringify(query));
        assert.ok(offloaded.length >= 1, `${JSON.stringify(query)} read on a read thread`);
      }
    });

    it("reads an export's batches there, several at a time, each read after the last one's final row", async () => {
      // enough rows for several reads ahead; names repeat and a third have no employee id, so
      // reads must continue exactly at the tiebreak and across nulls of a nullable key
      const ctx = withThreads.context();
      for (let n = 0; n < 45; n++) {
        await withThreads.users.create(ctx, {
          email: `batch.${n}@example.com`,
          name: `Batch ${(n * 7) % 5}`,
          ...(n % 3 === 0 ? {} : { employee_id: `E-${n % 4}` }),
        });
      }
      for (const ordering of ['name', '-email', 'employee_id,name', '-employee_id,-email']) {
        offloaded.length = 0;
        const batch: ListBatch = { size: 2, after: null, next: null, taken: false, read: false };
        const exported: string[] = [];
        try {
          for (;;) {
            const listed = await inListBatch(batch, () => withThreads.users.list(withThreads.context(), { ordering }));
            exported.push(...listed.data.map((user) => user.email));
            if (listed.data.length < batch.size) break;
            batch.after = batch.next;
          }
        } finally {
          await batch.held?.close();
        }
        const here = await withoutThreads.users.list(withoutThreads.context(), { ordering, page_size: '100' });
        assert.equal(exported.length, 49);
        assert.deepEqual(
          exported,
          here.data.map((user) => user.email),
          ordering,
        );
        const ahead = batch.size * READ_AHEAD_BATCHES;
        assert.equal(
          offloaded.length,
          Math.ceil((exported.length + 1) / ahead),
          `${ordering}: every read on a read thread, ${ahead} rows each`,
        );
      }
    });

    it('reads the export of a list not built on a resource definition (bulk jobs) there too', async () => {
      for (let n = 0; n < 3; n++) {
        await withThreads.users.bulk.submit(withThreads.context(), { users: [{ email: `job.${n}@example.com`, name: `Job ${n}` }] });
      }
      offloaded.length = 0;
      const batch: ListBatch = { size: 1, after: null, next: null, taken: false, read: false };
      const exported: string[] = [];
      try {
        for (;;) {
          const listed = await inListBatch(batch, () => withThreads.bulkJobs.list(withThreads.context(), {}));
          exported.push(...listed.data.map((job) => job.id));
          if (listed.data.length < batch.size) break;
          batch.after = batch.next;
        }
      } finally {
        await batch.held?.close();
      }
      const here = await withoutThreads.bulkJobs.list(withoutThreads.context(), { page_size: '100' });
      assert.equal(exported.length, 3);
      assert.deepEqual(
        exported,
        here.data.map((job) => job.id),
      );
      assert.ok(offloaded.length >= 1 && offloaded.every((sql) => /from "jobs"/.test(sql)), offloaded.join('\n'));
    });

    it("reads an export's audit-log pages there (a list paged by cursor), and none other", async () => {
      offloaded.length = 0;
      const batch: ListBatch = { size: 500, after: null, next: null, taken: false, read: false };
      const exported = await inListBatch(batch, () => withThreads.auditLog.list(withThreads.context(), { page_size: '100' }));
      const here = await withoutThreads.auditLog.list(withoutThreads.context(), { page_size: '100' });
      assert.ok(exported.data.length > 0, 'the users created above were audited');
      assert.deepEqual(exported, here);
      assert.ok(offloaded.length >= 1 && offloaded.every((sql) => /"audit_log/.test(sql)), offloaded.join('\n'));
      offloaded.length = 0;
      await withThreads.auditLog.list(withThreads.context(), { page_size: '100' });
      assert.deepEqual(offloaded, [], 'a page that is not an export is read here');
    });

    it('reads lists without a search, and transactions, on the request thread', async () => {
      offloaded.length = 0;
      const listed = await withThreads.users.list(withThreads.context(), { ordering: 'name', page_size: '100' });
      assert.equal(listed.data.length, 49);
      await withThreads.users.create(withThreads.context(), { email: 'new@example.com', name: 'New Person' });
      assert.deepEqual(offloaded, []);
    });

    it('sees what the request thread committed', async () => {
      await withThreads.users.create(withThreads.context(), { email: 'zelda@example.com', name: 'Zelda Fitzgerald' });
      const found = await withThreads.users.list(withThreads.context(), { search: 'zelda' });
      assert.deepEqual(
        found.data.map((user) => user.email),
        ['zelda@example.com'],
      );
    });

    it('reads on the request thread when there is nowhere else to read (threads starting, or gone)', async () => {
      const here = createLectern({ storage: await openSqliteStorage({ file, offloadRead: () => undefined }) });
      try {
        const found = await here.users.list(here.context(), { search: 'grace' });
        assert.deepEqual(
          found.data.map((user) => user.email),
          ['grace@example.com'],
        );
      } finally {
        await here.close();
      }
    });

    it('gives back every value exactly, those JSON would alter included (a blob, infinity, minus zero)', async () => {
      assert.deepEqual(await rowsRead(`select 'a"b\\' || char(10) || '€' as t, 2 as i, 2.5 as r, null as n, ? as p`, ['x']), [
        { t: 'a"b\\\n€', i: 2, r: 2.5, n: null, p: 'x' },
      ]);
      const [row] = (await rowsRead(`select x'00ff' as b, 9e999 as inf, -0.0 as z, 'same' as c, 'later' as c`, [])) as Array<
        Record<string, unknown>
      >;
      assert.deepEqual(row!.b, Buffer.from([0, 255]));
      assert.equal(row!.inf, Infinity);
      assert.ok(Object.is(row!.z, -0));
      // a repeated column name keeps its last value, as better-sqlite3's own rows do
      assert.equal(row!.c, 'later');
    });

    it('answers a failing statement with its error, code included', async () => {
      await assert.rejects(threads.read('select * from no_such_table', []), (error: Error & { code?: string }) => {
        assert.match(error.message, /no such table/);
        assert.equal(error.code, 'SQLITE_ERROR');
        return true;
      });
    });
  });
}
