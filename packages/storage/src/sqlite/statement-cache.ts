import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import type { AutocommitWrites } from './writes-take-turns.ts';
import { rowBuilder } from '../shared/row-builder.ts';

const MAX_CACHED_STATEMENTS = 1000;

type Values = unknown[];

/**
 * What is made from a text (a statement from its SQL, a row builder from its columns), kept by
 * that text; past `max` texts the lot is dropped and made again as asked, so a stream of distinct
 * texts cannot grow it without bound.
 */
export class KeptByText<T> {
  private readonly kept = new Map<string, T>();

  constructor(
    private readonly max: number,
    private readonly make: (text: string) => T,
  ) {}

  get(text: string): T {
    let value = this.kept.get(text);
    if (value === undefined) {
      if (this.kept.size >= this.max) this.kept.clear();
      value = this.make(text);
      this.kept.set(text, value);
    }
    return value;
  }

  clear(): void {
    this.kept.clear();
  }
}

/** A statement as kysely uses it, and its first row alone for the lookups by key. */
interface CachedStatement extends SqliteStatement {
  /** the first row, in a list of its own; none when there is none */
  first(parameters: readonly unknown[]): unknown[];
  /** whether it writes nothing (SQLite's own answer) */
  readonly readonly: boolean;
}

/**
 * A prepared statement as kysely uses it. A reader runs in better-sqlite3's raw mode (rows as
 * arrays) and its rows are built by a function made for its columns: better-sqlite3 builds each
 * row object property by property in C++, looking every column name up in V8's string table,
 * which cost more than the lookup itself on the per-request reads (token, resource by id).
 */
function cachedStatement(statement: BetterSqlite3.Statement, sql: string, cursors: OpenCursors): CachedStatement {
  // SQLite prepares a statement again after a schema change, and `*` may then stand for other
  // columns: only statements that name every column keep their builder
  const columns = statement.reader && !sql.includes('*') ? statement.columns().map((column) => column.name) : undefined;
  // an object literal would set the prototype rather than a property of that name
  const build = columns && !columns.includes('__proto__') ? rowBuilder(columns) : undefined;
  if (build) statement.raw(true);
  return {
    reader: statement.reader,
    readonly: statement.readonly,
    first(parameters) {
      const row = statement.get(parameters);
      return row === undefined ? [] : [build ? build(row as Values) : row];
    },
    all(parameters) {
      const rows = statement.all(parameters) as unknown[];
      if (build) for (let i = 0; i < rows.length; i++) rows[i] = build(rows[i] as Values);
      return rows;
    },
    *iterate(parameters) {
      cursors.open++;
      try {
        for (const values of statement.iterate(parameters)) yield build ? build(values as Values) : values;
      } finally {
        cursors.open--;
      }
    },
    run(parameters) {
      return statement.run(parameters);
    },
  };
}

/** Statements being stepped through a row at a time: the connection runs nothing else meanwhile. */
interface OpenCursors {
  open: number;
}

/**
 * What kysely sees as the database. Kysely prepares every statement anew; preparing is a large
 * part of a hot query's cost, so statements are kept by SQL text (the text never contains values).
 *
 * Kysely also opens transactions with a plain `begin`, which takes the write lock only at the
 * first write: if another process (the CLI) commits in between, SQLite fails with SQLITE_BUSY
 * without waiting. `begin immediate` takes the lock up front and so honours busy_timeout.
 */
export class CachedStatementDatabase implements SqliteDatabase, AutocommitWrites {
  private readonly cursors: OpenCursors = { open: 0 };
  private readonly statements = new KeptByText(MAX_CACHED_STATEMENTS, (text) =>
    cachedStatement(this.raw.prepare(text), text, this.cursors),
  );

  constructor(readonly raw: BetterSqlite3.Database) {}

  prepare(sql: string): CachedStatement {
    return this.statements.get(sql === 'begin' ? 'begin immediate' : sql);
  }

  /**
   * Whether `sql`, sent now, would write outside a transaction (writes-take-turns.ts). COMMIT and
   * the savepoint statements count as read-only; `begin immediate` takes the lock, so a
   * transaction's BEGIN waits too (within KyselyStorage's turn for it, at once).
   */
  writesOutsideTransaction(sql: string): boolean {
    return !this.raw.inTransaction && !this.prepare(sql).readonly;
  }

  /**
   * Runs a read now, outside kysely's queue, unless the connection is inside a transaction (the
   * read would see its uncommitted rows) or stepping through another statement's rows: then
   * `undefined`, and the read queues like any other. A lone statement runs start to finish within
   * this call, so nothing can come between its steps.
   */
  loneRead(sql: string, parameters: readonly unknown[], firstOnly: boolean): unknown[] | undefined {
    if (this.raw.inTransaction || this.cursors.open > 0) return undefined;
    const statement = this.prepare(sql);
    if (!statement.reader) return undefined;
    return firstOnly ? statement.first(parameters) : (statement.all(parameters) as unknown[]);
  }

  close(): void {
    this.statements.clear();
    this.raw.close();
  }
}
