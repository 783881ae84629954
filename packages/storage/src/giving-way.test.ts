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
import { freshPostgresDatabase, postgresServerUrl } from '../../../test/helpers/postgres.ts';
import { addUser, emailsOf, signal } from '../../../test/helpers/writer-threads.ts';
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

interface Database {
  name: string;
  skip: string | false;
  open: (turns: (role: WriterTurns['role']) => Omit<WriterTurns, 'waitMs'>) => Promise<Threads>;
  /**
   * What else the background thread does while its batch is paused, checked not to be stopped: on
   * PostgreSQL its pool serves other work beside the batch; SQLite's one connection does not
   */
  besidePausedBatch?: (background: KyselyStorage) => Promise<void>;
}

const databases: Database[] = [
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
    // reads: a write there could wait for a row the paused batch holds
    besidePausedBatch: async (background) => {
      const seen = await background.transaction((tx) => tx.users.count(), { withoutWriteLock: true });
      assert.equal(seen, 0, 'a transaction beside the batch ran, seeing nothing uncommitted');
      assert.equal(await background.users.count(), 0, 'a read beside the batch ran too');
    },
  },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
        await database.besidePausedBatch?.(background);
        goOn();
        await Promise.all([chunk, write]);
        assert.equal(gaveWay, undefined);
        assert.deepEqual(order, ['background committed', 'request began']);
        assert.deepEqual(await emailsOf(request), ['earlier-batch@example.com', 'request@example.com']);
      }));

    it('undoes work that swallowed the refusal and carried on, a batch write refused before its rows are sent', () =>
      withThreads(async ({ request, background }) => {
        const learner = await request.transaction((tx) => addUser(tx, 'learner@example.com'));
        let batchWriteRefused: boolean | undefined;
        const [wroteFirst, wrote] = signal();
        const [mayGoOn, goOn] = signal();
        let requestDone = false;
        let gaveWay: unknown;
        const chunk = background.transaction(async (tx) => {
          gaveWay = await background.giveWayToRequests(tx, async (sp) => {
            await addUser(sp, 'first@example.com');
            wrote();
            await mayGoOn;
            // a batch write (on PostgreSQL one COPY … FROM STDIN, its rows sent as a stream), taken
            // for a refusal, as a batch that fails as a whole is: the work carries on
            const notifications = Array.from({ length: 60 }, () => ({
              kind: 'enrolled' as const,
              userId: learner.id,
              subject: 'Enrolled',
              payload: '{}',
              status: 'pending' as const,
              nextAttemptAt: '2026-01-01T00:00:00.000Z',
              unsubscribeKey: randomIds.uuid(),
              createdAt: '2026-01-01T00:00:00.000Z',
            }));
            batchWriteRefused = await sp.notifications.insertMany(notifications).then(
              () => false,
              () => true,
            );
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
        assert.deepEqual(await emailsOf(request), ['learner@example.com', 'request@example.com']);
        assert.equal(batchWriteRefused, true, 'the batch write itself was refused, not a later statement');
        assert.equal((await request.db.selectFrom('notifications').select('id').execute()).length, 0);
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
