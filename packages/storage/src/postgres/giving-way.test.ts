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
 * Another server's writes are seen in pg_locks: while a batch runs (`seeOtherServers`), and between
 * batches (`writersWaiting`).
 * The tests assert orders and final rows, never times.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
  it("is stopped part-way by another server's write too, seen in pg_locks while the work runs", { skip }, async () => {
    const one = await oneServer();
    const other = await openPostgresStorage({ url: one.url });
    try {
      const order: string[] = [];
      const [wroteFirst, wrote] = signal();
      let gaveWay: unknown;
      let written = 0;
      const chunk = one.background.transaction(async (tx) => {
        await addUser(tx, 'earlier-batch@example.com');
        gaveWay = await one.background.giveWayToRequests(tx, async (sp) => {
          // a row at a time until a statement is refused: the other server's write is seen by a
          // look at the database, not at once, and without the looks this runs to its end
          for (; written < 500; written++) {
            await addUser(sp, `batch-row-${written}@example.com`);
            if (written === 0) wrote();
            await sleep(10);
          }
          return 'finished';
        });
        order.push('background committed');
      });
      await wroteFirst;
      const write = other.transaction(async (tx) => {
        order.push('other server began');
        await addUser(tx, 'other@example.com');
      });
      await Promise.all([chunk, write]);
      assert.equal(gaveWay, undefined, `the batch ran to its end (${written} rows)`);
      assert.deepEqual(order, ['background committed', 'other server began']);
      assert.deepEqual(await emailsOf(other), ['earlier-batch@example.com', 'other@example.com']);
    } finally {
      await other.close();
      await one.close();
    }
  });
});
