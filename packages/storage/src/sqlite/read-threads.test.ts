import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLectern, inListBatch, type Lectern, type ListBatch } from '@lectern/core';
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

    it("reads an export's batches there, each after the last one's final row", async () => {
      for (const ordering of ['name', '-email']) {
        offloaded.length = 0;
        const batch: ListBatch = { size: 2, after: null, next: null, taken: false, read: false };
        const exported: string[] = [];
        for (;;) {
          const listed = await inListBatch(batch, () => withThreads.users.list(withThreads.context(), { ordering }));
          exported.push(...listed.data.map((user) => user.email));
          if (listed.data.length < batch.size) break;
          batch.after = batch.next;
        }
        const here = await withoutThreads.users.list(withoutThreads.context(), { ordering, page_size: '100' });
        assert.deepEqual(
          exported,
          here.data.map((user) => user.email),
          ordering,
        );
        assert.equal(offloaded.length, Math.ceil((exported.length + 1) / batch.size), `${ordering}: every batch read on a read thread`);
      }
    });

    it('reads lists without a search, and transactions, on the request thread', async () => {
      offloaded.length = 0;
      const listed = await withThreads.users.list(withThreads.context(), { ordering: 'name' });
      assert.equal(listed.data.length, 4);
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

    it('answers a failing statement with its error, code included', async () => {
      await assert.rejects(threads.read('select * from no_such_table', []), (error: Error & { code?: string }) => {
        assert.match(error.message, /no such table/);
        assert.equal(error.code, 'SQLITE_ERROR');
        return true;
      });
    });
  });
}
