/**
 * Where the schema's DDL differs between SQLite and PostgreSQL. Everything else in the migrations
 * is written once, in SQL both accept.
 */
import { sql, type ColumnDefinitionBuilder, type Kysely, type RawBuilder } from 'kysely';
import { dialectOf } from '../shared/dialect.ts';

/** DDL written for one database only (its functions, its kind of index). */
export const isPostgres = (db: Kysely<unknown>): boolean => dialectOf(db).kind === 'postgres';

/** An integer primary key the database numbers: SQLite's rowid alias, a PostgreSQL identity column. */
export const identity =
  (db: Kysely<unknown>) =>
  (column: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    isPostgres(db) ? column.primaryKey().generatedByDefaultAsIdentity() : column.primaryKey().autoIncrement();

/** SQLite stores a table keyed by its primary key alone `WITHOUT ROWID`; PostgreSQL has no such clause (nor need). */
export const withoutRowid = (db: Kysely<unknown>): RawBuilder<unknown> => (isPostgres(db) ? sql`` : sql` without rowid`);
