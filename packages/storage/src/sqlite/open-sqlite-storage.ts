import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { KyselyStorage, migrateToLatest } from '../kysely-storage.ts';
import type { Database } from '../schema.ts';
import { CachedStatementDatabase } from './statement-cache.ts';

export interface SqliteStorageOptions {
  /** database file; `:memory:` for a throwaway database */
  file: string;
  /** page cache size in MiB */
  cacheSizeMb?: number;
  /** how long a writer waits for another process's lock before failing */
  busyTimeoutMs?: number;
  /**
   * The loaded better-sqlite3 addon, for the single executable, where the addon cannot be found
   * on disk by the usual lookup (see packages/cli/src/sea-native.ts).
   */
  nativeBinding?: unknown;
}

export function openSqliteDatabase(options: SqliteStorageOptions): BetterSqlite3.Database {
  const raw = new BetterSqlite3(
    options.file,
    options.nativeBinding ? ({ nativeBinding: options.nativeBinding } as BetterSqlite3.Options) : {},
  );
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  raw.pragma('temp_store = MEMORY');
  raw.pragma(`cache_size = -${(options.cacheSizeMb ?? 32) * 1024}`);
  // bounds each table's share of PRAGMA optimize (see openSqliteStorage) to a sample
  raw.pragma('analysis_limit = 1000');
  return raw;
}

/** How often the planner's statistics are brought up to date while the database is open. */
const OPTIMIZE_EVERY_MS = 60 * 60 * 1000;

/**
 * Opens (creating if needed) a SQLite database and migrates it to the current schema.
 *
 * It also keeps SQLite's table statistics current, as SQLite advises for long-lived connections.
 * Without them the planner guesses that every equality on an index matches ten rows, so for a page
 * of assignments filtered on a user's email and on `state` it may walk the state index (a third of
 * the table) to avoid sorting twenty rows. 0x10002 analyses every table at open; later runs redo
 * only tables that grew a lot, each bounded by analysis_limit.
 */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<KyselyStorage> {
  const database = new CachedStatementDatabase(openSqliteDatabase(options));
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  try {
    await migrateToLatest(db);
    await sql`PRAGMA optimize = 0x10002`.execute(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  // through kysely, so it waits its turn behind an open transaction on the one connection
  const optimize = () => sql`PRAGMA optimize`.execute(db).then(() => undefined);
  const timer = setInterval(() => void optimize().catch(() => {}), OPTIMIZE_EVERY_MS).unref();
  return new KyselyStorage(db, async () => {
    clearInterval(timer);
    await optimize().catch(() => {});
  });
}
