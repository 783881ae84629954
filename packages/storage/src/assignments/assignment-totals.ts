/**
 * The exact totals of assignment lists from the counts kept per write (assignment-counts.ts), so a
 * list over all assignments, a state, a content type or overdue ones adds up a few hundred rows
 * instead of counting up to a million (docs/scaling.md, "Counts kept per write").
 */
import { sql, type Expression, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { ListQuery } from '@lectern/core';
import { outstandingStates } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { filterValues } from '../listing/list-builder.ts';
import type { TotalQuery } from '../listing/list-definition.ts';

/** The list filters the kept counts answer, alone or together. */
const COUNTED_FILTERS = new Set(['state', 'content_type', 'is_overdue', 'content_item']);

/** The sum of the kept counts (`n`) of the rows `query` selects, 0 when it selects none, as SQL. */
const sumOf = <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): Expression<number> =>
  sql<number>`${query.select(sql<number>`coalesce(sum(n), 0)`.as('n'))}`;

/** A total as the one-row query a list reads it from (ListHints.total). */
const totalOf = (db: Kysely<Database>, total: Expression<number>): TotalQuery => db.selectNoFrom(sql<number>`${total}`.as('total'));

/** Every live assignment: the size the cost of reading a list in an index's order is measured against. */
export const allAssignments = async (db: Kysely<Database>): Promise<number> =>
  Number((await totalOf(db, sumOf(db.selectFrom('assignment_totals'))).execute())[0]?.total ?? 0);

/**
 * The number of live assignments `query` matches, as a query over the kept counts, when its filters
 * are among those counted per write (a content item's with its state at most, since per-item due
 * dates are not kept); undefined when they are not, or when ranges or search narrow it.
 */
export function keptTotal(db: Kysely<Database>, query: ListQuery, today: string): TotalQuery | undefined {
  const { filters } = query;
  if (query.search !== undefined || Object.keys(query.ranges).length > 0) return undefined;
  if (!Object.keys(filters).every((name) => COUNTED_FILTERS.has(name))) return undefined;
  const states = filters.state === undefined ? undefined : filterValues(filters.state);
  const types = filters.content_type === undefined ? undefined : filterValues(filters.content_type);

  if (filters.content_item !== undefined) {
    if (filters.is_overdue !== undefined) return undefined;
    let stats = db
      .selectFrom('assignment_stats as s')
      .innerJoin('content_items as c', 'c.id', 's.content_id')
      .where('c.public_id', 'in', filterValues(filters.content_item));
    if (states) stats = stats.where('s.state', 'in', states);
    if (types) stats = stats.where('c.content_type', 'in', types);
    return totalOf(db, sumOf(stats));
  }

  let totals = db.selectFrom('assignment_totals');
  if (states) totals = totals.where('state', 'in', states);
  if (types) totals = totals.where('content_type', 'in', types);
  if (filters.is_overdue === undefined) return totalOf(db, sumOf(totals));

  // overdue: outstanding and due before today (core's isOverdue), summed over the days before it
  const overdueStates = outstandingStates.filter((state) => !states || states.includes(state));
  let due = db.selectFrom('assignment_due_totals').where('due_date', '<', today);
  if (types) due = due.where('content_type', 'in', types);
  const overdue = overdueStates.length === 0 ? sql<number>`0` : sumOf(due.where('state', 'in', overdueStates));
  return totalOf(db, filters.is_overdue === true ? overdue : sql<number>`${sumOf(totals)} - ${overdue}`);
}
