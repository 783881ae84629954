import type { Compilable, CompiledQuery, Kysely } from 'kysely';

type BindValue = string | number | null | readonly string[] | readonly number[];
type BindValues = readonly BindValue[];

/**
 * Runs a compiled query without kysely's executor, or answers `undefined` when it must go through
 * kysely after all. On SQLite (CachedStatementDatabase.loneRead) a read runs at once, or waits its
 * turn when the connection is busy; with `firstOnly` it stops at the first row. On PostgreSQL
 * (open-postgres-storage.ts) any statement outside a transaction runs as a named prepared
 * statement on the pool.
 */
export type LoneRead = (sql: string, parameters: readonly unknown[], firstOnly: boolean) => unknown[] | Promise<unknown[]> | undefined;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const loneReads = new WeakMap<Kysely<any>, LoneRead>();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const pageReads = new WeakMap<Kysely<any>, LoneRead>();

/**
 * Lets `db`'s prepared queries run through `read` when it can (a root database, never a
 * transaction); with `pages`, list pages too (pageReadOf).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function allowLoneReads(db: Kysely<any>, read: LoneRead, options: { pages?: boolean } = {}): void {
  loneReads.set(db, read);
  if (options.pages) pageReads.set(db, read);
}

/**
 * How a list's page, or a total counted on its own, read on `db` itself (never a transaction) runs
 * as a lone read, where the database keeps what it planned for a text: PostgreSQL's named
 * statements are parsed and planned once per connection, where kysely's unnamed ones are planned
 * at every request (0.3 to 0.9 ms for an assignments page with its joins, more than running it).
 * SQLite's lone read is its one connection's, which a page of a list does not go through.
 * `undefined` from the read, at once or settled: run it through kysely.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function pageReadOf(db: Kysely<any>): ((sql: string, parameters: readonly unknown[]) => Promise<unknown[] | undefined>) | undefined {
  const read = pageReads.get(db);
  return read && (async (sql, parameters) => read(sql, parameters, false));
}

const allRows = <Row>(rows: Row[]) => rows;
const firstRow = <Row>(rows: Row[]) => rows[0];

/**
 * Builds the template. Each placeholder stands where its value goes and is typed as that value, so
 * kysely checks it against its column; it is a sentinel string, swapped for the value at each run,
 * so a build only binds it and never computes with it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Build<Row, Values extends BindValues> = (db: Kysely<any>, ...placeholders: Values) => Compilable<Row>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Run<Result, Values extends BindValues> = (db: Kysely<any>, ...values: Values) => Result | Promise<Result>;

function prepared<Row, Values extends BindValues, Result>(
  arity: Values['length'],
  build: Build<Row, Values>,
  firstOnly: boolean,
  answer: (rows: Row[]) => Result,
): Run<Result, Values> {
  const sentinels = Array.from({ length: arity }, (_, i) => `\u0000lectern-bind-${i}\u0000`);
  const slots = new Map(sentinels.map((sentinel, i) => [sentinel, i]));
  const templates = new Map<unknown, CompiledQuery<Row>>();
  return (db, ...values) => {
    const dialect = db.getExecutor().adapter.constructor;
    let template = templates.get(dialect);
    // the sentinels stand in for the values, whatever their types (Build)
    if (!template) templates.set(dialect, (template = build(db, ...(sentinels as unknown as Values)).compile()));
    const parameters = template.parameters.map((parameter) => {
      const slot = typeof parameter === 'string' ? slots.get(parameter) : undefined;
      return slot === undefined ? parameter : values[slot];
    });
    const rows = loneReads.get(db)?.(template.sql, parameters, firstOnly);
    if (rows instanceof Promise) return rows.then((found) => answer(found as Row[]));
    if (rows) return answer(rows as Row[]);
    return db.executeQuery<Row>({ ...template, parameters }).then((result) => answer(result.rows));
  };
}

/**
 * A query built and compiled once, then run with new values. Building a kysely query allocates
 * and freezes its whole syntax tree on every call, which costs more than SQLite takes to answer a
 * lookup by key; for the per-request queries (token, resource by id) only the bound values ever
 * change. The template is built with sentinel values that each call swaps for the real ones, once
 * per database dialect (the SQL text differs: `?` against `$1`).
 *
 * On a database that allows lone reads (SQLite's one connection), the query runs there and then
 * when nothing else holds the connection: kysely's queue and its chain of promises cost more than
 * SQLite takes to answer.
 */
export function preparedQuery<Row, Values extends BindValues = []>(arity: Values['length'], build: Build<Row, Values>): Run<Row[], Values> {
  return prepared(arity, build, false, allRows);
}

/**
 * A prepared query (as above) by a unique key: its one row, or `undefined`. A lone read stops at
 * that row rather than stepping on to learn that no other follows.
 */
export function preparedLookup<Row, Values extends BindValues = []>(
  arity: Values['length'],
  build: Build<Row, Values>,
): Run<Row | undefined, Values> {
  return prepared(arity, build, true, firstRow);
}
