/**
 * How a list is read in its order, the same for a page (list-builder.ts) and an export's batches
 * (list-batches.ts): each sort key's direction and place for nulls, and the SQLite indexes that
 * can serve the read.
 */
import type { OrderByItemBuilder } from 'kysely';
import type { ListQuery } from '@lectern/core';
import type { ListDefinition, ListHints } from './list-definition.ts';

/**
 * A sort key's order: its direction, and for a key the list declares nullable, nulls first going up
 * and last going down on both databases (SQLite's default, PostgreSQL's reverse).
 */
export const keyOrder =
  (descending: boolean, nullable: boolean) =>
  (order: OrderByItemBuilder): OrderByItemBuilder => {
    const ordered = descending ? order.desc() : order.asc();
    if (!nullable) return ordered;
    return descending ? ordered.nullsLast() : ordered.nullsFirst();
  };

/**
 * SQLite's indexes that can serve a read of the list (none on PostgreSQL, whose definitions have
 * none: listOn): `narrow`, the repository's own or that of the first filter asked that has one;
 * `ordered`, the first sort key's, unless that key can be null (its nulls come first, matching or
 * not, so walking its index would not find the matches in order).
 */
export function listIndexes<DB, TB extends keyof DB>(
  list: ListQuery,
  def: ListDefinition<DB, TB>,
  hints: ListHints<DB, TB>,
): { narrow: string | undefined; ordered: string | undefined } | undefined {
  const { indexes } = def;
  if (!indexes) return undefined;
  const filter = Object.keys(list.filters).find((name) => indexes.narrow?.[name] !== undefined);
  const first = list.ordering[0];
  return {
    narrow: hints.narrow ?? (filter === undefined ? undefined : indexes.narrow![filter]),
    ordered: first && !def.nullable?.has(first.field) ? indexes.ordered?.[first.field] : undefined,
  };
}
