/**
 * What the assignments list knows beyond its SQL (shared/list-builder.ts, ListHints): the exact
 * total from the counts kept per write when a list's filters, or a saved report's conjunction of
 * simple tests, are among those kept; the number of all rows, against which reading in an index's
 * order is costed; and, for a learner's own rows or a report that names one user, the index that
 * finds them.
 */
import type { Kysely } from 'kysely';
import type { FilterValue, ListQuery } from '@lectern/core';
import type { AssignmentListOptions, RqlFilter, RqlTest } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import type { ListHints } from '../shared/list-builder.ts';
import { allAssignments, keptTotal } from './assignment-totals.ts';

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

/** A test of one user's email that finds at most a few users: equal, one of a list, or equal ignoring case. */
const namesOneUser = (conjunct: RqlFilter) =>
  conjunct.kind === 'field' &&
  (conjunct.field === 'user.email' || conjunct.field === 'user.public_id') &&
  (conjunct.test.op === 'eq' || conjunct.test.op === 'in' || (conjunct.test.op === 'like' && conjunct.test.pattern.segments.length === 1));

export async function assignmentListHints(db: Kysely<Database>, query: ListQuery, options: AssignmentListOptions): Promise<ListHints> {
  if (options.ownerId !== null) return { narrow: USER_INDEX };
  const all = await allAssignments(db);
  const rql = options.rql?.filter ?? null;
  if (rql !== null && conjunctsOf(rql).some(namesOneUser)) return { all, narrow: USER_INDEX };
  const filters = reportAsFilters(rql, query.filters);
  const total = filters && (await keptTotal(db, { ...query, filters }, options.today));
  return total === undefined ? { all } : { all, total };
}
