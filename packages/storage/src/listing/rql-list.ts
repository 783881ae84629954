/**
 * How a list repository takes a saved report's narrowing (core's ListNarrowing): the report's
 * filter becomes one more WHERE condition of the list's own query, over the same tables and
 * aliases its filters use, so it is counted, paged and index-planned with them.
 */
import { expressionBuilder, sql, type Expression, type SelectQueryBuilder } from 'kysely';
import type { ListQuery } from '@lectern/core';
import type { ListNarrowing, RqlFilter } from '@lectern/core/ports';
import type { ListDefinition } from './list-definition.ts';
import type { Database } from '../schema.ts';
import { rqlToSql, sqliteRqlDialect, type RqlSqlDialect, type RqlSqlField, type RqlSqlFields } from './rql-to-sql.ts';

/**
 * A field read from a column of the list query, e.g. `u.email`; a joined alias is the join it needs.
 * `folded` names a column of the same table that the repository keeps equal to foldCase(column)
 * (`u.email_lower`): `ilike` then compares it, and its index, instead of folding every row.
 */
export const rqlColumn = (reference: string, folded?: string): RqlSqlField => ({
  kind: 'scalar',
  column: sql.ref(reference),
  join: reference.split('.')[0]!,
  ...(folded ? { folded: sql.ref(folded) } : {}),
});

const eb = expressionBuilder<Database, never>();

/**
 * A list field: `elements` selects the rows of one list (correlated with the list query's row, as
 * `rt.content_id = ci.id`), and `element` is the column (or expression) each row contributes. A test
 * on the list is an EXISTS over those rows, so it is never NULL and needs no guard.
 */
export const rqlList = <DB, TB extends keyof DB, O>(
  elements: SelectQueryBuilder<DB, TB, O>,
  element: string | Expression<unknown>,
): RqlSqlField => ({
  kind: 'array',
  some: (test) => eb.exists(elements.where(test(typeof element === 'string' ? sql.ref(element) : element))),
});

/**
 * The joins of a list query by alias. SQLite does not drop an unused LEFT JOIN from a count, so a
 * list joins a table before filtering only when a report's fields read it, and otherwise for the
 * page's columns alone.
 */
export type ListJoins<DB, TB extends keyof DB> = Readonly<
  Record<string, <O>(query: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, O>>
>;

export interface NarrowedList<DB, TB extends keyof DB, O> {
  filtered: SelectQueryBuilder<DB, TB, O>;
  /** what fetchPage orders by: the report's ordering, when it has one, in place of the query's */
  query: ListQuery;
  definition: ListDefinition<DB, TB>;
  /** `query` with the joins of `joins` that `filtered` does not have yet: for the page's columns */
  joinRest: <P>(query: SelectQueryBuilder<DB, TB, P>) => SelectQueryBuilder<DB, TB, P>;
}

/** The fields a report's filter reads. */
export function fieldsOf(filter: RqlFilter, into: Set<string> = new Set()): Set<string> {
  switch (filter.kind) {
    case 'field':
    case 'some':
      into.add(filter.field);
      break;
    case 'and':
    case 'or':
      for (const child of filter.children) fieldsOf(child, into);
      break;
    case 'not':
      fieldsOf(filter.child, into);
  }
  return into;
}

/**
 * The report's filter on `filtered` (with the joins its fields read), and its ordering expressed as
 * extra sortable fields of the list definition (keyed `rql:<field>`, which no list field can be),
 * so fetchPage pages it as any other.
 */
export function narrowList<DB, TB extends keyof DB, O>(
  filtered: SelectQueryBuilder<DB, TB, O>,
  query: ListQuery,
  definition: ListDefinition<DB, TB>,
  fields: RqlSqlFields,
  joins: ListJoins<DB, TB>,
  narrowing: ListNarrowing = {},
  dialect: RqlSqlDialect = sqliteRqlDialect,
): NarrowedList<DB, TB, O> {
  const rql = narrowing.rql;
  const used = new Set(rql?.ordering.map((term) => term.field));
  if (rql?.filter) fieldsOf(rql.filter, used);
  const joined = new Set<string>();
  for (const name of used) {
    const field = fields[name];
    const alias = field?.kind === 'scalar' ? field.join : undefined;
    if (alias !== undefined && joins[alias] && !joined.has(alias)) {
      filtered = joins[alias](filtered);
      joined.add(alias);
    }
  }
  const joinRest = <P>(page: SelectQueryBuilder<DB, TB, P>) =>
    Object.entries(joins).reduce((current, [alias, join]) => (joined.has(alias) ? current : join(current)), page);
  if (!rql) return { filtered, query, definition, joinRest };

  const narrowed = rql.filter === null ? filtered : filtered.where(rqlToSql(rql.filter, fields, dialect));
  if (rql.ordering.length === 0) return { filtered: narrowed, query, definition, joinRest };
  const ordering = { ...definition.ordering };
  for (const { field } of rql.ordering) {
    const mapped = fields[field];
    if (mapped?.kind !== 'scalar') throw new Error(`RQL: no scalar SQL mapping to order by '${field}'`);
    ordering[`rql:${field}`] = () => mapped.column;
  }
  return {
    filtered: narrowed,
    query: { ...query, ordering: rql.ordering.map(({ field, descending }) => ({ field: `rql:${field}`, descending })) },
    // a report may order by any field, a joined one among them: its nulls are placed alike on both databases
    definition: {
      ...definition,
      ordering,
      nullable: new Set([...(definition.nullable ?? []), ...rql.ordering.map(({ field }) => `rql:${field}`)]),
    },
    joinRest,
  };
}
