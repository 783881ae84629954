/**
 * Giving way (`giveWayToRequests`, transaction-turns.ts), on both databases: the background
 * thread's long work stops at its next statement once one of the request thread's writes counts
 * itself in, with what it wrote undone, and the background thread begins nothing while such a write
 * waits or runs. The two threads are played by two storages on one database in one thread, sharing
 * the counter as serve shares it. What only one database has stays beside its driver
 * (sqlite/shared-between-threads.test.ts, postgres/giving-way.test.ts). The tests assert orders and
 * final rows, never times.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { randomIds } from '@lectern/core';
import type { Stores } from '@lectern/core';
import { freshPostgresDatabase, postgresServerUrl } from '../../../test/helpers/postgres.ts';
import type { KyselyStorage } from './kysely-storage.ts';
import { openPostgresStorage } from './postgres/open-postgres-storage.ts';
import { openSqliteStorage } from './sqlite/open-sqlite-storage.ts';
import { WRITER_TURNS_SLOTS, type WriterTurns } from './transaction-turns.ts';

interface Threads {
  request: KyselyStorage;
  background: KyselyStorage;
}

const dir = mkdtempSync(join(tmpdir(), 'lectern-giving-way-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const databases: Array<{
  name: string;
  skip: string | false;
  open: (turns: (role: WriterTurns['role']) => Omit<WriterTurns, 'waitMs'>) => Promise<Threads>;
}> = [
  {
    name: 'SQLite',
    skip: false,
    open: async (turns) => {
      const shared = { file: join(dir, `giving-way-${files++}.db`), busyTimeoutMs: 5_000 };
      return {
        request: await openSqliteStorage({ ...shared, writerTurns: turns('first') }),
        background: await openSqliteStorage({ ...shared, writerTurns: turns('after') }),
      };
    },
  },
  {
    name: 'PostgreSQL',
    skip: !postgresServerUrl && 'no PostgreSQL server',
    open: async (turns) => {
      const url = await freshPostgresDatabase({ migrated: true });
      return {
        request: await openPostgresStorage({ url, writerTurns: turns('first') }),
        background: await openPostgresStorage({ url, writerTurns: turns('after') }),
      };
    },
  },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const addUser = (tx: Stores, email: string) =>
  tx.users.insert({
    publicId: randomIds.uuid(),
    email,
    name: email,
    role: 'user',
    employeeId: null,
    managerId: null,
    isActive: true,
    dateJoined: '2026-01-01T00:00:00.000Z',
  });

const emailsOf = async (storage: KyselyStorage) =>
  (await storage.db.selectFrom('users').select('email').orderBy('email').execute()).map((user) => user.email);

/** A promise and the function that settles it. */
function signal(): [Promise<void>, () => void] {
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  return [settled, settle];
}

for (const database of databases) {
  /** Runs `test` on a request thread and a background thread sharing one counter, closing both after. */
  const withThreads = async (test: (threads: Threads) => Promise<void>) => {
    const counter = new Int32Array(new SharedArrayBuffer(4 * WRITER_TURNS_SLOTS));
    const threads = await database.open((role) => ({ counter, role }));
    try {
      await test(threads);
    } finally {
      await Promise.all([threads.request.close(), threads.background.close()]);
    }
  };

  describe(`the background thread's long work giving way to a request's write (${database.name})`, { skip: database.skip }, () => {
    it('stops at its next statement once a request waits, undoes what it wrote, and commits what came before', () =>
      withThreads(async ({ request, background }) => {
        const order: string[] = [];
        const [wroteFirst, wrote] = signal();
        const [mayGoOn, goOn] = signal();
        let gaveWay: unknown;
        const chunk = background.transaction(async (tx) => {
          await addUser(tx, 'earlier-batch@example.com');
          gaveWay = await background.giveWayToRequests(tx, async (sp) => {
            await addUser(sp, 'batch-row-1@example.com');
            wrote();
            await mayGoOn;
            // the request counted itself in meanwhile: this statement is where the work stops
            await addUser(sp, 'batch-row-2@example.com');
            order.push('batch finished');
            return 'finished';
          });
          order.push('background committed');
        });
        await wroteFirst;
        const write = request.transaction(async (tx) => {
          order.push('request began');
          await addUser(tx, 'request@example.com');
        });
        // turns of the event loop in which the request counts itself in and starts waiting
        await sleep(20);
        goOn();
        await Promise.all([chunk, write]);
        assert.equal(gaveWay, undefined);
        assert.deepEqual(order, ['background committed', 'request began']);
        assert.deepEqual(await emailsOf(request), ['earlier-batch@example.com', 'request@example.com']);
      }));

    it('undoes work that swallowed the refusal and carried on', () =>
      withThreads(async ({ request, background }) => {
        const [wroteFirst, wrote] = signal();
        const [mayGoOn, goOn] = signal();
        let requestDone = false;
        let gaveWay: unknown;
        const chunk = background.transaction(async (tx) => {
          gaveWay = await background.giveWayToRequests(tx, async (sp) => {
            await addUser(sp, 'first@example.com');
            wrote();
            await mayGoOn;
            // taken for a refusal, as a batch that fails as a whole is: the work carries on
            await addUser(sp, 'second@example.com').catch(() => undefined);
            assert.equal(requestDone, false, 'the request still waits for this transaction');
            await addUser(sp, 'third@example.com').catch(() => undefined);
            return 'finished';
          });
        });
        await wroteFirst;
        const write = request.transaction((tx) => addUser(tx, 'request@example.com')).then(() => (requestDone = true));
        await sleep(20);
        goOn();
        await Promise.all([chunk, write]);
        assert.equal(gaveWay, undefined);
        assert.deepEqual(await emailsOf(request), ['request@example.com']);
      }));

    it('runs to its end and answers when no request waits', () =>
      withThreads(async ({ request, background }) => {
        const answer = await background.transaction((tx) =>
          background.giveWayToRequests(tx, async (sp) => {
            await addUser(sp, 'alone@example.com');
            return 'finished';
          }),
        );
        assert.deepEqual(answer, { value: 'finished' });
        assert.deepEqual(await emailsOf(request), ['alone@example.com']);
      }));

    it("lets the background thread begin nothing while a request's transaction waits or runs", () =>
      withThreads(async ({ request, background }) => {
        const order: string[] = [];
        const [requestBegan, began] = signal();
        const [released, release] = signal();
        const write = request.transaction(async (tx) => {
          await addUser(tx, 'request@example.com');
          began();
          await released;
          order.push('request committed');
        });
        await requestBegan;
        const chunk = background.transaction(async (tx) => {
          order.push('background began');
          await addUser(tx, 'chunk@example.com');
        });
        // turns of the event loop in which the background thread would have begun, had it not waited
        await sleep(20);
        release();
        await Promise.all([write, chunk]);
        assert.deepEqual(order, ['request committed', 'background began']);
      }));
  });
}
