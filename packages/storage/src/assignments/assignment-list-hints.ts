/**
 * What the assignments list knows beyond its SQL (listing/list-builder.ts, ListHints): the exact
 * total from the counts kept per write when a list's filters, or a saved report's conjunction of
 * simple tests, are among those kept, or when a report reads only the user's fields; the number
 * of all rows, against which reading in an index's order is costed; and, for a learner's own rows
 * or a report that names one user, the index that finds them.
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { FilterValue, ListQuery } from '@lectern/core';
import type { AssignmentListOptions, RqlFilter, RqlTest } from '@lectern/core/ports';
import type { Database, Tables } from '../schema.ts';
import type { ListHints, TotalQuery } from '../listing/list-definition.ts';
import { dialectOf } from '../shared/dialect.ts';
import { fieldsOf } from '../listing/rql-list.ts';
import { rqlDialectOf, rqlToSql } from '../listing/rql-to-sql.ts';
import { assignmentResource, type AssignmentTables } from './assignment-resource.ts';
import { allAssignments, keptTotal, liveAssignments } from './assignment-totals.ts';

/** The index of one user's assignments (user_id first). */
const USER_INDEX = 'assignments_pair_idx';

/** Report fields that mean the same as a list filter, for the tests that mean the same as it does. */
const FILTER_OF_FIELD: Readonly<Record<string, string>> = {
  state: 'state',
  'content_item.content_type': 'content_type',
  'content_item.public_id': 'content_item',
  is_overdue: 'is_overdue',
};

const conjunctsOf = (filter: RqlFilter): readonly RqlFilter[] => (filter.kind === 'and' ? filter.children : [filter]);

/** `eq` or `in`, which a list filter's value expresses exactly; undefined for any other test. */
function valueOf(test: RqlTest): FilterValue | undefined {
  if (test.op === 'eq') return typeof test.value === 'boolean' ? test.value : [String(test.value)];
  if (test.op === 'in' && test.values.every((value) => typeof value === 'string')) return test.values as string[];
  return undefined;
}

/**
 * The report's filter as list filters added to `filters`, when it is a conjunction of `eq`/`in`
 * tests on fields that are list filters, each named once and not already filtered by the list.
 */
export function reportAsFilters(filter: RqlFilter | null, filters: ListQuery['filters']): ListQuery['filters'] | undefined {
  if (filter === null) return filters;
  const merged: Record<string, FilterValue> = { ...filters };
  for (const conjunct of conjunctsOf(filter)) {
    if (conjunct.kind !== 'field') return undefined;
    const name = FILTER_OF_FIELD[conjunct.field];
    const value = valueOf(conjunct.test);
    if (name === undefined || value === undefined || name in merged) return undefined;
    merged[name] = value;
  }
  return merged;
}

/** A test that finds at most a few users, by email or id: equal, one of a list, or equal ignoring case. */
const namesOneUser = (conjunct: RqlFilter) =>
  conjunct.kind === 'field' &&
  (conjunct.field === 'user.email' || conjunct.field === 'user.public_id') &&
  (conjunct.test.op === 'eq' || conjunct.test.op === 'in' || (conjunct.test.op === 'like' && conjunct.test.pattern.segments.length === 1));

/** The share of the users table's pages a PostgreSQL report total samples to see whether most users match. */
const SAMPLED_PERCENT = 1;

/**
 * A report that reads only the user's fields matches every live assignment of the users it
 * matches: their kept live assignments (`user_assignment_counts`) added up, without reading an
 * assignment. Joining each matching user's count costs as much again as reading the users, so
 * where most users match (a report on every `@example.com` address), PostgreSQL takes the users
 * that do not match from all live assignments instead: it reads a sample of the users' pages
 * (`samplePercent`) to decide which side is the smaller, and joins only that side. The answer is
 * exact either way; the sample decides only what is read. SQLite, which cannot sample, joins the
 * matching users, a lookup each in its narrow table of counts.
 */
export function usersReportTotal(
  db: Kysely<Database>,
  filter: RqlFilter,
  today: string,
  samplePercent = SAMPLED_PERCENT,
): TotalQuery | undefined {
  if (![...fieldsOf(filter)].every((field) => field.startsWith('user.'))) return undefined;
  const matches = rqlToSql(filter, assignmentResource.rql({ today }), rqlDialectOf(db));
  const countsWhere = (condition: Expression<SqlBool>) =>
    db
      .selectFrom('users as u')
      .innerJoin('user_assignment_counts as k', 'k.user_id', 'u.id')
      .where(condition)
      .select(sql<number>`coalesce(sum(k.n), 0)`.as('total'));
  if (!dialectOf(db).sampledReads) return countsWhere(matches);
  // a user's test may be null (a field without a value): such a user does not match
  const missing = sql<SqlBool>`not coalesce(${matches}, false)`;
  const share = sql<number>`(select avg(case when ${matches} then 1.0 else 0 end) from users u tablesample system (${sql.lit(samplePercent)}))`;
  return db.selectNoFrom(
    sql<number>`case when ${share} > 0.5 then ${liveAssignments(db)} - (${countsWhere(missing)}) else (${countsWhere(matches)}) end`.as(
      'total',
    ),
  );
}

export async function assignmentListHints(
  db: Kysely<Database>,
  query: ListQuery,
  options: AssignmentListOptions,
): Promise<ListHints<Tables<AssignmentTables>, 'a'>> {
  if (options.ownerId !== null) return { narrow: USER_INDEX };
  const rql = options.rql?.filter ?? null;
  const narrow = rql !== null && conjunctsOf(rql).some(namesOneUser) ? USER_INDEX : undefined;
  // an export's batch is neither counted nor costed against the table (listing/list-batches.ts):
  // on PostgreSQL the kept counts cost two round trips on the pool a batch, for nothing
  if (query.batch) return narrow === undefined ? {} : { narrow };
  // the size of the table only costs an index hint, which a planner with statistics needs not
  const all = dialectOf(db).plannerStatistics ? undefined : await allAssignments(db);
  const plain = query.search === undefined && Object.keys(query.ranges).length === 0 && Object.keys(query.filters).length === 0;
  const usersTotal = rql !== null && plain ? usersReportTotal(db, rql, options.today) : undefined;
  const total = usersTotal ?? (narrow === undefined ? keptTotalOf(db, query, rql, options.today) : undefined);
  // a kept creation range's total reads a day's entries at most, and its page walks the created
  // order (alone, or within a state) from the bound: no plan depends on what the bound selects
  const createdOnly = Object.keys(query.ranges).length === 1 && query.ranges.created !== undefined;
  const alike = total !== undefined && createdOnly && rql === null ? { boundsPlannedAlike: true } : {};
  return {
    ...(all === undefined ? {} : { all }),
    ...(total === undefined ? {} : { total }),
    ...(narrow === undefined ? {} : { narrow }),
    ...alike,
  };
}

/** The kept total of the list with the report's filter read as list filters, when it reads as them. */
function keptTotalOf(db: Kysely<Database>, query: ListQuery, rql: RqlFilter | null, today: string): TotalQuery | undefined {
  const filters = reportAsFilters(rql, query.filters);
  return filters && keptTotal(db, { ...query, filters }, today);
}
