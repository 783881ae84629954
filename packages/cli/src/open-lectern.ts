import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createLectern, type DeliveryOutcomeCounts, type EngineLogger, type Lectern, type LecternConfigInput } from '@lectern/core';
import {
  backupSqliteFile,
  copySqliteToPostgres,
  describePostgresUrl,
  TargetNotEmptyError,
  type CopiedTable,
  isPostgresUrl,
  migratePostgres,
  migrateSqliteFile,
  openPostgresStorage,
  openSqliteStorage,
  type BackupResult,
  type SqliteStorageOptions,
} from '@lectern/storage';
import { seaNativeBinding } from './sea-native.ts';
import { UsageError } from './usage-error.ts';

export interface OpenOptions {
  /**
   * Only `serve` and `migrate` may create a database: anywhere else a missing file is a typo in
   * --db, and creating it would silently make a second, empty database with its own admin.
   */
  create?: boolean;
  config?: LecternConfigInput;
  logger?: EngineLogger;
  /** PostgreSQL: connections to keep at most */
  poolSize?: number;
  /** how this thread takes turns at the write lock with `serve`'s background thread */
  writerTurns?: { counter: Int32Array; role: 'first' | 'after' };
  /** where the longest transaction is kept: `serve`'s threads share it for /metrics */
  longestTransaction?: Int32Array;
  /** SQLite: where searches are read, off this thread (search-threads.ts) */
  offloadRead?: SqliteStorageOptions['offloadRead'];
  /** where webhook outcomes are counted: `serve`'s threads share them (background-thread.ts) */
  deliveryOutcomes?: DeliveryOutcomeCounts;
}

/** Core over the database `--db` names (a SQLite file or a postgres:// URL), as every command uses it. */
export async function openLectern(target: string, options: OpenOptions = {}): Promise<Lectern> {
  const storage = await namingTheDatabase(target, async () =>
    isPostgresUrl(target)
      ? openPostgresStorage({
          url: target,
          ...(options.poolSize ? { poolSize: options.poolSize } : {}),
          ...(options.longestTransaction ? { longestTransaction: options.longestTransaction } : {}),
          ...(options.writerTurns ? { writerTurns: options.writerTurns } : {}),
        })
      : openSqliteStorage({
          ...(await storageOptions(target, options.create ?? false)),
          ...(options.longestTransaction ? { longestTransaction: options.longestTransaction } : {}),
          ...(options.writerTurns ? { writerTurns: options.writerTurns } : {}),
          ...(options.offloadRead ? { offloadRead: options.offloadRead } : {}),
        }),
  );
  return createLectern({
    storage,
    config: options.config ?? {},
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.deliveryOutcomes ? { deliveryOutcomes: options.deliveryOutcomes } : {}),
  });
}

/**
 * A database that cannot be opened (a missing folder, no permission, a file that is not SQLite, a
 * server that refuses) fails with a message naming it: the driver's own ("unable to open database
 * file") does not say which of the paths an operator configured is wrong.
 */
async function namingTheDatabase<T>(target: string, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const where = isPostgresUrl(target) ? describePostgresUrl(target) : resolve(target);
    throw new Error(`cannot open the database at ${where}: ${(error as Error).message}`, { cause: error });
  }
}

/** `lectern migrate`: creates or upgrades the file; returns the migrations applied. */
export async function migrateDatabase(target: string): Promise<string[]> {
  if (isPostgresUrl(target)) return migratePostgres({ url: target });
  return migrateSqliteFile(await storageOptions(target, true));
}

/** `lectern migrate-data`: the SQLite file's rows copied into the empty PostgreSQL database. */
export async function copyToPostgres(file: string, url: string, onTable: (copied: CopiedTable) => void): Promise<CopiedTable[]> {
  try {
    return await copySqliteToPostgres(await storageOptions(file, false), { url }, onTable);
  } catch (error) {
    if (error instanceof TargetNotEmptyError) throw new UsageError(error.message);
    throw error;
  }
}

/** `lectern backup`: a consistent copy of the (possibly live) database at `destination`. */
export async function backupDatabase(file: string, destination: string): Promise<BackupResult> {
  if (isPostgresUrl(file)) throw new UsageError('backup copies SQLite database files; back a PostgreSQL database up with pg_dump');
  return backupSqliteFile(await storageOptions(file, false), destination);
}

async function storageOptions(file: string, create: boolean): Promise<SqliteStorageOptions> {
  if (!create) requireDatabase(file);
  const nativeBinding = await seaNativeBinding();
  // mustExist also covers the file vanishing between the check above and the open
  return { file, mustExist: !create, ...(nativeBinding ? { nativeBinding } : {}) };
}

/** Throws the usage error for a --db path where there is no database file. */
export function requireDatabase(file: string): void {
  if (isPostgresUrl(file)) return;
  if (!existsSync(file)) throw new UsageError(`no database at ${file}`);
}
