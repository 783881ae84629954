import type { Compilable, CompiledQuery, Kysely } from 'kysely';

type BindValue = string | number;

/**
 * A query built and compiled once, then run with new values. Building a kysely query allocates
 * and freezes its whole syntax tree on every call, which costs more than SQLite takes to answer a
 * lookup by key; for the per-request queries (token, resource by id) only the bound values ever
 * change. The template is built with sentinel values that each call swaps for the real ones, once
 * per database dialect (the SQL text differs: `?` against `$1`).
 */
export function preparedQuery<Row>(
  arity: number,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  build: (db: Kysely<any>, ...placeholders: string[]) => Compilable<Row>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): (db: Kysely<any>, ...values: BindValue[]) => Promise<Row[]> {
  const sentinels = Array.from({ length: arity }, (_, i) => `\u0000lectern-bind-${i}\u0000`);
  const slots = new Map(sentinels.map((sentinel, i) => [sentinel, i]));
  const templates = new Map<unknown, CompiledQuery<Row>>();
  return async (db, ...values) => {
    const dialect = db.getExecutor().adapter.constructor;
    let template = templates.get(dialect);
    if (!template) templates.set(dialect, (template = build(db, ...sentinels).compile()));
    const parameters = template.parameters.map((parameter) => {
      const slot = typeof parameter === 'string' ? slots.get(parameter) : undefined;
      return slot === undefined ? parameter : values[slot];
    });
    return (await db.executeQuery<Row>({ ...template, parameters })).rows;
  };
}
