import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

const MAX_CACHED_STATEMENTS = 1000;

/**
 * What kysely sees as the database. Kysely prepares every statement anew; preparing is a large
 * part of a hot query's cost, so statements are kept by SQL text (the text never contains values).
 *
 * Kysely also opens transactions with a plain `begin`, which takes the write lock only at the
 * first write: if another process (the CLI) commits in between, SQLite fails with SQLITE_BUSY
 * without waiting. `begin immediate` takes the lock up front and so honours busy_timeout.
 */
export class CachedStatementDatabase implements SqliteDatabase {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  constructor(readonly raw: BetterSqlite3.Database) {}

  prepare(sql: string): SqliteStatement {
    const text = sql === 'begin' ? 'begin immediate' : sql;
    let statement = this.statements.get(text);
    if (!statement) {
      if (this.statements.size >= MAX_CACHED_STATEMENTS) this.statements.clear();
      statement = this.raw.prepare(text);
      this.statements.set(text, statement);
    }
    return statement as unknown as SqliteStatement;
  }

  close(): void {
    this.statements.clear();
    this.raw.close();
  }
}
