/**
 * The exact totals of assignment lists from the counts kept per write (assignment-counts.ts), so a
 * list over all assignments, a state, a content type or overdue ones adds up a few hundred rows
 * instead of counting up to a million (docs/scaling.md, "Counts kept per write").
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { ListQuery } from '@lectern/core';
import { createdDayOf, dayEnd, dayStart, outstandingStates } from '@lectern/core/ports';
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

/** The number of live assignments, as SQL: the kept totals added up (a few hundred rows). */
export const liveAssignments = (db: Kysely<Database>): Expression<number> => sumOf(db.selectFrom('assignment_totals'));

/** Every live assignment: the size the cost of reading a list in an index's order is measured against. */
export const allAssignments = async (db: Kysely<Database>): Promise<number> =>
  Number((await totalOf(db, liveAssignments(db)).execute())[0]?.total ?? 0);

/**
 * The number of live assignments `query` matches, as a query over the kept counts, when its filters
 * are among those counted per write (a content item's with its state at most, since per-item due
 * dates are not kept); undefined when they are not, or when search or a range other than an
 * outstanding assignment's due date (dueRangeTotal) or a creation range (createdRangeTotal) narrows it.
 */
export function keptTotal(db: Kysely<Database>, query: ListQuery, today: string): TotalQuery | undefined {
  const { filters } = query;
  if (query.search !== undefined) return undefined;
  if (!Object.keys(filters).every((name) => COUNTED_FILTERS.has(name))) return undefined;
  if (Object.keys(query.ranges).length > 0) return dueRangeTotal(db, query, today) ?? createdRangeTotal(db, query);
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

/**
 * A due date range's total from the outstanding assignments kept per content type, state and due
 * date (`assignment_due_totals`), when the list's state filter or `is_overdue=true` keeps it to
 * outstanding states: the kept rows (under 3 000 at a million assignments) instead of the range's
 * index entries (7 000 for the bench's first 5 % of not-started ones). The kept due date is the
 * row's own text, so the range compares it exactly as the list's condition does.
 */
function dueRangeTotal(db: Kysely<Database>, query: ListQuery, today: string): TotalQuery | undefined {
  const { filters, ranges } = query;
  const bounds = ranges.due_date;
  if (bounds === undefined || Object.keys(ranges).length > 1) return undefined;
  if (filters.content_item !== undefined || filters.is_overdue === false) return undefined;
  const states = filters.state === undefined ? undefined : filterValues(filters.state);
  const outstanding = outstandingStates.filter((state) => !states || states.includes(state));
  // without is_overdue=true, every state the list keeps must be one whose due dates are kept
  if (filters.is_overdue !== true && (states === undefined || outstanding.length < states.length)) return undefined;
  if (outstanding.length === 0) return totalOf(db, sql<number>`0`);
  let due = db.selectFrom('assignment_due_totals').where('state', 'in', outstanding);
  if (filters.content_type !== undefined) due = due.where('content_type', 'in', filterValues(filters.content_type));
  if (filters.is_overdue === true) due = due.where('due_date', '<', today);
  if (bounds.gte !== undefined) due = due.where('due_date', '>=', bounds.gte);
  if (bounds.lte !== undefined) due = due.where('due_date', '<=', bounds.lte);
  return totalOf(db, sumOf(due));
}

/**
 * A creation range's total, alone or with a state filter, from the live assignments kept per day of
 * creation and state (`assignment_created_totals`): the kept days from the lower bound's day up to
 * the upper bound's, less the rows of the lower bound's day before it, plus the rows of the upper
 * bound's day up to it. `created` and its bounds compare as text, so a day's rows all lie between
 * the day's ten characters and any bound of a later day; the two counts read at most a day's index
 * entries each instead of the range's (52 000 for the bench's last 5 % of a million), and a bound at
 * either end of its day needs none. Bounds on one day are left to a COUNT, which reads no more than
 * that day.
 */
function createdRangeTotal(db: Kysely<Database>, query: ListQuery): TotalQuery | undefined {
  const { filters, ranges } = query;
  const bounds = ranges.created;
  if (bounds === undefined || Object.keys(ranges).length > 1) return undefined;
  if (!Object.keys(filters).every((name) => name === 'state')) return undefined;
  const { gte, lte } = bounds;
  const [from, to] = [gte === undefined ? undefined : createdDayOf(gte), lte === undefined ? undefined : createdDayOf(lte)];
  if (from !== undefined && to !== undefined && from >= to) return undefined;
  const states = filters.state === undefined ? undefined : filterValues(filters.state);
  // A bound at either end of its day, as a date picker sends it, needs no rows counted: a stored
  // `created` is a full ISO time (the clock's), so none of a day's rows lies before its start or
  // after its end. A bound at midnight ends a range at the rows of that instant alone.
  const throughDay = to !== undefined && lte === dayEnd(to);
  let days = db.selectFrom('assignment_created_totals');
  if (states) days = days.where('state', 'in', states);
  if (from !== undefined) days = days.where('created_day', '>=', from);
  if (to !== undefined) days = days.where('created_day', throughDay ? '<=' : '<', to);
  /** the live rows (of the filtered states) whose `created` meets `condition` */
  const liveRows = (condition: (eb: ExpressionBuilder<Database, 'assignments'>) => Expression<SqlBool>) => {
    let rows = db
      .selectFrom('assignments')
      .select(sql<number>`count(*)`.as('n'))
      .where('deleted_at', 'is', null)
      .where(condition);
    if (states) rows = rows.where('state', 'in', states);
    return rows;
  };
  // Counting no range of rows also keeps the statement's plan: PostgreSQL guesses a range between
  // two parameters at 5 000 rows of a million, so its plan for any bound looked ten times dearer
  // than the one for the bound at hand, and it planned every request anew (1.1 ms, more than
  // running it) although the page runs by name (ListHints.boundsPlannedAlike).
  let total: Expression<number> = sumOf(days);
  if (from !== undefined && gte !== dayStart(from)) {
    const beforeBound = liveRows((eb) => eb.and([eb('created', '>=', from), eb('created', '<', gte!)]));
    total = sql<number>`${total} - (${beforeBound})`;
  }
  if (to !== undefined && !throughDay) {
    const upToBound = liveRows((eb) =>
      lte === dayStart(to) ? eb('created', '=', lte) : eb.and([eb('created', '>=', to), eb('created', '<=', lte!)]),
    );
    total = sql<number>`${total} + (${upToBound})`;
  }
  return totalOf(db, total);
}
