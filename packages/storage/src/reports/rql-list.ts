/**
 * How a list repository takes a saved report's narrowing (core's ListNarrowing): the report's
 * filter becomes one more WHERE condition of the list's own query, over the same tables and
 * aliases its filters use, so it is counted, paged and index-planned with them.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { ListNarrowing, ListQuery } from '@lectern/core';
import type { AnyQuery, ListDefinition } from '../shared/list-builder.ts';
import { rqlToSql, type RqlSqlField, type RqlSqlFields } from './rql-to-sql.ts';

/** A field read from a column of the list query, e.g. `u.email` or the joined manager's `m.email`. */
export const rqlColumn = (reference: string): RqlSqlField => ({ kind: 'scalar', column: sql.ref(reference) });

/** A list field whose elements a subquery reads; `exists(test)` is true when some element passes. */
export const rqlList = (exists: (test: Expression<SqlBool>) => Expression<SqlBool>, element: string): RqlSqlField => ({
  kind: 'array',
  some: (test) => exists(test(sql.ref(element))),
});

export interface NarrowedList<Q extends AnyQuery> {
  filtered: Q;
  /** what fetchPage orders by: the report's ordering, when it has one, in place of the query's */
  query: ListQuery;
  definition: ListDefinition;
}

/**
 * The report's filter on `filtered`, and its ordering expressed as extra sortable fields of the list
 * definition (keyed `rql:<field>`, which no list field can be), so fetchPage pages it as any other.
 */
export function narrowList<Q extends AnyQuery>(
  filtered: Q,
  query: ListQuery,
  definition: ListDefinition,
  fields: RqlSqlFields,
  narrowing: ListNarrowing = {},
): NarrowedList<Q> {
  const rql = narrowing.rql;
  if (!rql) return { filtered, query, definition };
  const narrowed = rql.filter === null ? filtered : (filtered.where(rqlToSql(rql.filter, fields)) as Q);
  if (rql.ordering.length === 0) return { filtered: narrowed, query, definition };
  const ordering = { ...definition.ordering };
  for (const { field } of rql.ordering) {
    const mapped = fields[field];
    if (mapped?.kind !== 'scalar') throw new Error(`RQL: no scalar SQL mapping to order by '${field}'`);
    ordering[`rql:${field}`] = () => mapped.column;
  }
  return {
    filtered: narrowed,
    query: { ...query, ordering: rql.ordering.map(({ field, descending }) => ({ field: `rql:${field}`, descending })) },
    definition: { ...definition, ordering },
  };
}
