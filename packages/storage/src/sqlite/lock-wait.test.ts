/**
 * A transaction that finds SQLite's write lock held by another connection (a worker thread's, the
 * CLI's) waits for it on a timer: the thread keeps running other work meanwhile, and the
 * transaction begins once the lock is free.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openSqliteDatabase, openSqliteStorage } from './open-sqlite-storage.ts';

describe('waiting for the SQLite write lock', () => {
  it('leaves the thread free while another connection writes, then begins', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-lock-wait-'));
    const file = join(dir, 'lock.db');
    const storage = await openSqliteStorage({ file, busyTimeoutMs: 10_000 });
    const other = openSqliteDatabase({ file });
    try {
      const order: string[] = [];
      other.exec('begin immediate');
      const waiting = storage.transaction(async (tx) => {
        order.push('began');
        return tx.users.count();
      });
      // these run only if the waiting transaction does not hold the thread
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      order.push('timers ran');
      other.exec('commit');
      order.push('other committed');
      assert.equal(await waiting, 0);
      assert.deepEqual(order, ['timers ran', 'other committed', 'began']);
    } finally {
      other.close();
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives up with SQLITE_BUSY once the busy timeout has passed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lectern-lock-wait-'));
    const file = join(dir, 'lock.db');
    const storage = await openSqliteStorage({ file, busyTimeoutMs: 30 });
    const other = openSqliteDatabase({ file });
    try {
      other.exec('begin immediate');
      await assert.rejects(
        storage.transaction((tx) => tx.users.count()),
        (error: { code?: string }) => error.code === 'SQLITE_BUSY',
      );
      other.exec('commit');
      assert.equal(await storage.transaction((tx) => tx.users.count()), 0, 'the storage works on once the lock is free');
    } finally {
      other.close();
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
