/**
 * What the request thread and the background thread of a PostgreSQL server share, played by two
 * storages (two pools) on one database in one thread, as sqlite/shared-between-threads.test.ts
 * plays them on SQLite: the write lock is PostgreSQL's own, and the shared counter (`countIn`,
 * transaction-turns.ts) only says that one of the request thread's transactions waits for it or
 * runs.
 *
 * Giving way (`giveWayToRequests`) as both databases do it, with the background thread's other work
 * on its pool going on beside a paused batch and a COPY refused before its rows are sent, is
 * tested in ../giving-way.test.ts; here, what no second storage on SQLite can play: another
 * server.
 * Another server's writes are seen between batches only (`writersWaiting`, through pg_locks).
 * The tests assert orders and final rows, never times.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { freshPostgresDatabase, postgresServerUrl } from '../../../../test/helpers/postgres.ts';
import { addUser, emailsOf, signal } from '../../../../test/helpers/writer-threads.ts';
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

describe("the background thread's long work giving way to a request's write (PostgreSQL)", () => {
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
