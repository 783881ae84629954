/**
 * What the request thread and the background thread of a PostgreSQL server share, played by two
 * storages (two pools) on one database in one thread, as sqlite/shared-between-threads.test.ts
 * plays them on SQLite: the write lock is PostgreSQL's own, and the shared counter (`countIn`,
 * transaction-turns.ts) only says that one of the request thread's transactions waits for it or
 * runs.
 *
 * Giving way (`giveWayToRequests`) as both databases do it is tested in ../giving-way.test.ts;
 * here what only PostgreSQL has: a COPY's stream stops too, and the background thread's other work
 * on its pool (a transaction without the write lock, a read) is not stopped.
 * Another server's writes are seen between batches only (`writersWaiting`, through pg_locks).
 * The tests assert orders and final rows, never times.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { randomIds } from '@lectern/core';
import type { Stores } from '@lectern/core';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';
import type { KyselyStorage } from '../kysely-storage.ts';
import { WRITER_TURNS_SLOTS } from '../transaction-turns.ts';
import { openPostgresStorage } from './open-postgres-storage.ts';

const skip = !postgresServerUrl && 'no PostgreSQL server';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Server {
  request: KyselyStorage;
  background: KyselyStorage;
  url: string;
  close(): Promise<void>;
}

async function oneServer(url?: string): Promise<Server> {
  const database = url ?? (await freshPostgresDatabase({ migrated: true }));
  const counter = new Int32Array(new SharedArrayBuffer(4 * WRITER_TURNS_SLOTS));
  const request = await openPostgresStorage({ url: database, writerTurns: { counter, role: 'first' } });
  const background = await openPostgresStorage({ url: database, writerTurns: { counter, role: 'after' } });
  return { request, background, url: database, close: async () => void (await Promise.all([request.close(), background.close()])) };
}

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

describe("the background thread's long work giving way to a request's write (PostgreSQL)", () => {
  it('stops at its next statement once a request waits, undoes what it wrote, and commits what came before', { skip }, async () => {
    const { request, background, close } = await oneServer();
    try {
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
      // counted in as it is asked for, before it reaches the write lock the chunk holds
      const write = request.transaction(async (tx) => {
        order.push('request began');
        await addUser(tx, 'request@example.com');
      });
      // the background thread's other work on its pool (here reads: a write could wait for a row
      // the chunk holds) is not the batch: it is not stopped
      const seen = await background.transaction((tx) => tx.users.count(), { withoutWriteLock: true });
      assert.equal(seen, 0, 'a transaction beside the batch ran, seeing nothing uncommitted');
      assert.equal(await background.users.count(), 0, 'a read beside the batch ran too');
      goOn();
      await Promise.all([chunk, write]);
      assert.equal(gaveWay, undefined);
      assert.deepEqual(order, ['background committed', 'request began']);
      assert.deepEqual(await emailsOf(request), ['earlier-batch@example.com', 'request@example.com']);
    } finally {
      await close();
    }
  });

  it("stops before a COPY's rows are sent, and undoes work that swallowed the refusal", { skip }, async () => {
    const { request, background, close } = await oneServer();
    try {
      const learner = await request.transaction((tx) => addUser(tx, 'learner@example.com'));
      const [wroteFirst, wrote] = signal();
      const [mayGoOn, goOn] = signal();
      let requestDone = false;
      let gaveWay: unknown;
      const chunk = background.transaction(async (tx) => {
        gaveWay = await background.giveWayToRequests(tx, async (sp) => {
          await addUser(sp, 'first@example.com');
          wrote();
          await mayGoOn;
          // enough rows for one COPY … FROM STDIN (its only statement), taken for a refusal, as a
          // batch that fails as a whole is: the work carries on
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
          await sp.notifications.insertMany(notifications).catch(() => undefined);
          assert.equal(requestDone, false, 'the request still waits for this transaction');
          await addUser(sp, 'third@example.com').catch(() => undefined);
          return 'finished';
        });
      });
      await wroteFirst;
      const write = request.transaction((tx) => addUser(tx, 'request@example.com')).then(() => (requestDone = true));
      goOn();
      await Promise.all([chunk, write]);
      assert.equal(gaveWay, undefined);
      assert.deepEqual(await emailsOf(request), ['learner@example.com', 'request@example.com']);
      assert.equal((await request.db.selectFrom('notifications').select('id').execute()).length, 0);
    } finally {
      await close();
    }
  });

  it("is not stopped part-way by another server's write, which it sees between batches", { skip }, async () => {
    const one = await oneServer();
    const other = await openPostgresStorage({ url: one.url });
    try {
      const order: string[] = [];
      const [wroteFirst, wrote] = signal();
      const [mayGoOn, goOn] = signal();
      let gaveWay: unknown;
      let waitingAfter: boolean | undefined;
      const chunk = one.background.transaction(async (tx) => {
        gaveWay = await one.background.giveWayToRequests(tx, async (sp) => {
          await addUser(sp, 'batch-row-1@example.com');
          wrote();
          await mayGoOn;
          await addUser(sp, 'batch-row-2@example.com');
          return 'finished';
        });
        waitingAfter = await one.background.writersWaiting(tx);
        order.push('background committed');
      });
      await wroteFirst;
      const write = other.transaction(async (tx) => {
        order.push('other server began');
        await addUser(tx, 'other@example.com');
      });
      // until the other server's transaction waits for the lock (its request reaches the server
      // soon, not at once), as an import chunk would see it before its next batch
      let seen = false;
      for (let tries = 0; !seen && tries < 250; tries++) {
        const { rows } = await sql<{ waiting: boolean }>`select exists (
            select 1 from pg_locks where locktype = 'advisory' and not granted
              and database = (select oid from pg_database where datname = current_database())
          ) as waiting`.execute(one.request.db);
        seen = rows[0]?.waiting === true;
        if (!seen) await sleep(20);
      }
      assert.ok(seen, "the other server's transaction waits for the write lock");
      goOn();
      await Promise.all([chunk, write]);
      assert.deepEqual(gaveWay, { value: 'finished' });
      assert.equal(waitingAfter, true, 'seen between batches');
      assert.deepEqual(order, ['background committed', 'other server began']);
      assert.deepEqual(await emailsOf(other), ['batch-row-1@example.com', 'batch-row-2@example.com', 'other@example.com']);
    } finally {
      await other.close();
      await one.close();
    }
  });
});
