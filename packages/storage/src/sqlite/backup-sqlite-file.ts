import BetterSqlite3 from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync } from 'node:fs';
import type { SqliteStorageOptions } from './open-sqlite-storage.ts';

export interface BackupResult {
  pages: number;
}

// SQLite restarts an online backup whenever another connection writes between its steps, so on a
// busy server a page-at-a-time copy may never finish. Copying every page in one step reads a
// single snapshot instead (WAL lets the server keep writing meanwhile).
const ALL_PAGES_IN_ONE_STEP = 0x7fffffff;

/**
 * A consistent copy of a live database (SQLite's online backup), written beside `destination` and
 * renamed into place, so `destination` never holds half a copy.
 */
export async function backupSqliteFile(source: SqliteStorageOptions, destination: string): Promise<BackupResult> {
  const db = new BetterSqlite3(source.file, {
    readonly: true,
    fileMustExist: true,
    ...(source.nativeBinding ? ({ nativeBinding: source.nativeBinding } as BetterSqlite3.Options) : {}),
  });
  const partial = `${destination}.${process.pid}.${randomBytes(6).toString('hex')}.partial`;
  try {
    db.pragma(`busy_timeout = ${source.busyTimeoutMs ?? 5000}`);
    const { totalPages } = await db.backup(partial, { progress: () => ALL_PAGES_IN_ONE_STEP });
    renameSync(partial, destination);
    return { pages: totalPages };
  } finally {
    db.close();
    rmSync(partial, { force: true });
  }
}
