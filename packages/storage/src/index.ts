/** Public API of @lectern/storage. */
export { openSqliteStorage, openSqliteDatabase, migrateSqliteFile, type SqliteStorageOptions } from './sqlite/open-sqlite-storage.ts';
export { backupSqliteFile, type BackupResult } from './sqlite/backup-sqlite-file.ts';
export { runReadThread, startReadThreads, type ReadThreads } from './sqlite/read-threads.ts';
export type { OffloadedRead } from './shared/offloaded-reads.ts';
export {
  openPostgresStorage,
  migratePostgres,
  isPostgresUrl,
  describePostgresUrl,
  type PostgresStorageOptions,
} from './postgres/open-postgres-storage.ts';
export { copySqliteToPostgres, TargetNotEmptyError, type CopiedTable } from './postgres/copy-sqlite-to-postgres.ts';
export { KyselyStorage, createStores, migrateToLatest } from './kysely-storage.ts';
export { WRITER_TURNS_SLOTS } from './transaction-turns.ts';
export { recountAssignments } from './assignments/assignment-counts.ts';
export { recountSeats } from './enrollments/seat-counts.ts';
export type { Database } from './schema.ts';
export { escapeLike, containsIgnoringCase, applyFilters, fetchPage } from './listing/list-builder.ts';
export type { ListDefinition } from './listing/list-definition.ts';
