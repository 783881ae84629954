import type { Compilable, CompiledQuery, Kysely } from 'kysely';

type BindValue = string | number | null;

/**
 * Runs a compiled read at once, without kysely's connection queue, or answers `undefined` when the
 * connection is busy and the read must wait its turn (CachedStatementDatabase.loneRead).
 */
export type LoneRead = (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const loneReads = new WeakMap<Kysely<any>, LoneRead>();

/** Lets `db`'s prepared queries run through `read` when it can (a root database, never a transaction). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function allowLoneReads(db: Kysely<any>, read: LoneRead): void {
  loneReads.set(db, read);
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
export function preparedQuery<Row>(
  arity: number,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  build: (db: Kysely<any>, ...placeholders: string[]) => Compilable<Row>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): (db: Kysely<any>, ...values: BindValue[]) => Row[] | Promise<Row[]> {
  const sentinels = Array.from({ length: arity }, (_, i) => `\u0000lectern-bind-${i}\u0000`);
  const slots = new Map(sentinels.map((sentinel, i) => [sentinel, i]));
  const templates = new Map<unknown, CompiledQuery<Row>>();
  return (db, ...values) => {
    const dialect = db.getExecutor().adapter.constructor;
    let template = templates.get(dialect);
    if (!template) templates.set(dialect, (template = build(db, ...sentinels).compile()));
    const parameters = template.parameters.map((parameter) => {
      const slot = typeof parameter === 'string' ? slots.get(parameter) : undefined;
      return slot === undefined ? parameter : values[slot];
    });
    const rows = loneReads.get(db)?.(template.sql, parameters);
    if (rows) return rows as Row[];
    return db.executeQuery<Row>({ ...template, parameters }).then((result) => result.rows);
  };
}
