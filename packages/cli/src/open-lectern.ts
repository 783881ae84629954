import { existsSync } from 'node:fs';
import { createLectern, type EngineLogger, type Lectern, type LecternConfigInput } from '@lectern/core';
import {
  backupSqliteFile,
  copySqliteToPostgres,
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
}

/** Core over the database `--db` names (a SQLite file or a postgres:// URL), as every command uses it. */
export async function openLectern(target: string, options: OpenOptions = {}): Promise<Lectern> {
  const storage = isPostgresUrl(target)
    ? await openPostgresStorage({ url: target, ...(options.poolSize ? { poolSize: options.poolSize } : {}) })
    : await openSqliteStorage(await storageOptions(target, options.create ?? false));
  return createLectern({ storage, config: options.config ?? {}, ...(options.logger ? { logger: options.logger } : {}) });
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
