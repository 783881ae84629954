/**
 * What the request thread and the background thread of a SQLite server share, played by two
 * storages on one file in one thread.
 *
 * Turns at the write lock (WriterTurns, transaction-turns.ts): a request's
 * transaction that finds the background thread's under way waits for it on a timer: the event
 * loop, which runs the other storage's work too, keeps turning. Had it been left to SQLite's busy
 * handler, which sleeps on the thread, the other transaction could never finish and the request's
 * would fail with SQLITE_BUSY. The tests assert orders and outcomes, never times.
 *
 * Giving way, on both databases: ../giving-way.test.ts.
 *
 * Checkpoints of the log: the background thread's, after its turns (checkpoints-between-turns.ts).
 *
 * The longest transaction (`takeLongestTransactionSeconds`, read by /metrics on the request
 * thread): either thread's transactions count, and taking it starts the window again.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import { addUser } from '../../../../test/helpers/writer-threads.ts';
import type { KyselyStorage } from '../kysely-storage.ts';
import { WRITER_TURNS_SLOTS } from '../transaction-turns.ts';
import { openSqliteStorage } from './open-sqlite-storage.ts';

const dir = mkdtempSync(join(tmpdir(), 'lectern-writer-turns-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let files = 0;
async function twoThreads(busyTimeoutMs: number): Promise<{ request: KyselyStorage; background: KyselyStorage }> {
  const file = join(dir, `turns-${files++}.db`);
  const counter = new Int32Array(new SharedArrayBuffer(4 * WRITER_TURNS_SLOTS));
  const longestTransaction = new Int32Array(new SharedArrayBuffer(4));
  const shared = { file, busyTimeoutMs, longestTransaction };
  const request = await openSqliteStorage({ ...shared, writerTurns: { counter, role: 'first' } });
  const background = await openSqliteStorage({ ...shared, writerTurns: { counter, role: 'after' } });
  return { request, background };
}

describe('SQLite writers taking turns between the request thread and the background thread', () => {
  it("waits on a timer for the background thread's transaction, then writes", async () => {
    const { request, background } = await twoThreads(5_000);
    const order: string[] = [];
    let began!: () => void;
    const backgroundBegan = new Promise<void>((resolve) => (began = resolve));
    const chunk = background.transaction(async (tx) => {
      await addUser(tx, 'chunk@example.com');
      began();
      assert.equal(background.writersWaiting(tx), false, 'no request waits yet');
      // a chunk still writing, until it sees (as an import chunk asks before its next batch) that
      // the request waits for it; each look needs this thread's event loop to turn
      while (!background.writersWaiting(tx)) await sleep(1);
      order.push('background committed');
    });
    await backgroundBegan;
    await request.transaction(async (tx) => {
      order.push('request began');
      await addUser(tx, 'request@example.com');
    });
    await chunk;
    assert.deepEqual(order, ['background committed', 'request began']);
    assert.equal(await request.users.count(), 2);
    await Promise.all([request.close(), background.close()]);
  });

  it("waits on a timer for the background thread's transaction before a write outside a transaction too", async () => {
    const { request, background } = await twoThreads(5_000);
    const order: string[] = [];
    let began!: () => void;
    const backgroundBegan = new Promise<void>((resolve) => (began = resolve));
    let requestSettled = false;
    const chunk = background.transaction(async (tx) => {
      await addUser(tx, 'chunk@example.com');
      began();
      while (!background.writersWaiting(tx) && !requestSettled) await sleep(1);
      order.push('background committed');
    });
    await backgroundBegan;
    // a store's write on the storage itself, not a transaction's: SQLite's autocommit. In the busy
    // handler it would hold this thread, and with it the other transaction, until refused as busy.
    await addUser(request, 'autocommit@example.com').finally(() => (requestSettled = true));
    order.push('request wrote');
    await chunk;
    assert.deepEqual(order, ['background committed', 'request wrote']);
    assert.equal(await request.users.count(), 2);
    await Promise.all([request.close(), background.close()]);
  });

  it('refuses a request as busy when the background transaction outlasts the busy timeout', async () => {
    const { request, background } = await twoThreads(100);
    let began!: () => void;
    const backgroundBegan = new Promise<void>((resolve) => (began = resolve));
    let refused!: () => void;
    const requestRefused = new Promise<void>((resolve) => (refused = resolve));
    // the chunk holds the lock until the request has given up
    const chunk = background.transaction(async (tx) => {
      await addUser(tx, 'slow@example.com');
      began();
      await requestRefused;
    });
    await backgroundBegan;
    await assert.rejects(
      request.transaction((tx) => addUser(tx, 'late@example.com')).finally(refused),
      (error: { code?: string }) => error.code === 'SQLITE_BUSY',
    );
    await chunk;
    assert.equal(await request.users.count(), 1);
    await Promise.all([request.close(), background.close()]);
  });
});

describe("the write-ahead log's checkpoints", () => {
  it("are taken by the background thread after its turn, never by the request thread's commit", async () => {
    const { request, background } = await twoThreads(5_000);
    const file = join(dir, `turns-${files - 1}.db`);
    await request.db.schema.createTable('filler').addColumn('body', 'blob').execute();
    const before = statSync(file).size;
    // about 1 500 pages of 4 KiB into the log: SQLite's own checkpoint (past 1 000) would copy them;
    // the statement and its commit hold the thread, so no timer of the other storage runs before
    // the file is looked at
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 1500)
      insert into filler (body) select randomblob(4000) from n`.execute(request.db);
    assert.equal(statSync(file).size, before, "the request thread's commit copied nothing into the database file");
    await background.transaction((tx) => addUser(tx, 'chunk@example.com'));
    assert.ok(statSync(file).size >= before + 1500 * 4000, "the background thread's turn was followed by a checkpoint");
    await Promise.all([request.close(), background.close()]);
  });
});

describe("the longest transaction, seen from the request thread's storage", () => {
  it("counts the background thread's transactions, from begin to end, and starts again once taken", async () => {
    const { request, background } = await twoThreads(5_000);
    assert.equal(request.takeLongestTransactionSeconds(), 0, 'none ended yet');
    await background.transaction(async (tx) => {
      await addUser(tx, 'chunk@example.com');
      await sleep(60);
    });
    await request.transaction((tx) => addUser(tx, 'quick@example.com'));
    const longest = request.takeLongestTransactionSeconds();
    // the background transaction lasted at least its pause; a lower bound, not a measure of speed
    assert.ok(longest >= 0.05, `${longest} s`);
    assert.equal(request.takeLongestTransactionSeconds(), 0, 'taken: the window starts again');
    await request.transaction((tx) => addUser(tx, 'next@example.com'));
    assert.ok(background.takeLongestTransactionSeconds() > 0, "the request thread's own transactions count too");
    await Promise.all([request.close(), background.close()]);
  });
});
