import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { foldCase } from '@lectern/core/ports';
import { KyselyStorage, migrateToLatest } from '../kysely-storage.ts';
import type { WriterTurns } from '../transaction-turns.ts';
import { FOLD_FUNCTION } from '../shared/fold-sql.ts';
import { allowOffloadedReads, type OffloadedRead } from '../shared/offloaded-reads.ts';
import { allowLoneReads } from '../shared/prepared-query.ts';
import type { Database } from '../schema.ts';
import { CachedStatementDatabase } from './statement-cache.ts';
import { CheckpointsBetweenTurns, leaveCheckpointsToBackground } from './checkpoints-between-turns.ts';
import { writesTakingTurns } from './writes-take-turns.ts';
import { GivingWay } from '../giving-way.ts';

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
  /**
   * how this connection takes turns at the write lock with another thread's (WriterTurns in
   * transaction-turns.ts; `counter` has WRITER_TURNS_SLOTS elements); only when that thread runs,
   * since the background thread (`after`) then takes every checkpoint of the log
   * (checkpoints-between-turns.ts)
   */
  writerTurns?: Omit<WriterTurns, 'waitMs'>;
  /** where the longest transaction is kept, shared by a server's threads (KyselyStorage) */
  longestTransaction?: Int32Array;
  /** fail instead of creating the file when it does not exist */
  mustExist?: boolean;
  /** where searches are read, off the request thread (read-threads.ts) */
  offloadRead?: OffloadedRead;
}

const busyTimeoutMs = (options: SqliteStorageOptions) => options.busyTimeoutMs ?? 5000;

export function openSqliteDatabase(options: SqliteStorageOptions): BetterSqlite3.Database {
  const raw = new BetterSqlite3(options.file, {
    ...(options.nativeBinding ? ({ nativeBinding: options.nativeBinding } as BetterSqlite3.Options) : {}),
    fileMustExist: options.mustExist ?? false,
  });
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma(`busy_timeout = ${busyTimeoutMs(options)}`);
  raw.pragma('temp_store = MEMORY');
  raw.pragma(`cache_size = -${(options.cacheSizeMb ?? 32) * 1024}`);
  registerSqliteFunctions(raw);
  return raw;
}

/**
 * Functions Lectern's SQL calls, on one connection. `lectern_fold(text)` is core's foldCase: SQLite's
 * own lower() and LIKE fold only ASCII, and folding in the same JavaScript function as the in-memory
 * evaluator is what makes `search` and `ilike` agree with it on every letter. Deterministic, so
 * SQLite may evaluate it once per value; no index is built on it, so a database file stays writable
 * by tools that lack it.
 */
export function registerSqliteFunctions(raw: BetterSqlite3.Database): void {
  raw.function(FOLD_FUNCTION, { deterministic: true }, (text: unknown) => (typeof text === 'string' ? foldCase(text) : text));
}

/** Opens (creating if needed, unless `mustExist`) a SQLite database and migrates it to the current schema. */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<KyselyStorage> {
  const writerTurns = options.writerTurns && { ...options.writerTurns, waitMs: busyTimeoutMs(options) };
  const givingWay = writerTurns?.role === 'after' ? new GivingWay(writerTurns) : undefined;
  const { db, database } = await openAndMigrate(options, writerTurns, givingWay);
  if (options.offloadRead) allowOffloadedReads(db, options.offloadRead);
  const checkpoints = writerTurns?.role === 'after' ? new CheckpointsBetweenTurns(database.raw) : undefined;
  if (writerTurns?.role === 'first') leaveCheckpointsToBackground(database.raw);
  return new KyselyStorage(db, {
    ...(writerTurns ? { writerTurns } : {}),
    ...(givingWay ? { givingWay } : {}),
    ...(checkpoints ? { checkpoints } : {}),
    ...(options.longestTransaction ? { longestTransaction: options.longestTransaction } : {}),
  });
}

/** Creates or upgrades the database file and closes it again; returns the migrations applied. */
export async function migrateSqliteFile(options: SqliteStorageOptions): Promise<string[]> {
  const { db, applied } = await openAndMigrate(options);
  await db.destroy();
  return applied;
}

async function openAndMigrate(
  options: SqliteStorageOptions,
  turns?: WriterTurns,
  givingWay?: GivingWay,
): Promise<{ db: Kysely<Database>; database: CachedStatementDatabase; applied: string[] }> {
  const database = new CachedStatementDatabase(openSqliteDatabase(options));
  const dialect = new SqliteDialect({ database });
  // the request thread's writes outside a transaction wait for their turn too; the background
  // thread's may wait in the busy handler, which stops only that thread
  const db = new Kysely<Database>({
    dialect: turns?.role === 'first' ? writesTakingTurns(dialect, database, turns) : (givingWay?.dialect(dialect) ?? dialect),
  });
  allowLoneReads(db, (sql, parameters, firstOnly) => database.loneRead(sql, parameters, firstOnly));
  try {
    return { db, database, applied: await migrateToLatest(db) };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
