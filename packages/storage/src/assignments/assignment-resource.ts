/**
 * Assignments as storage reads them, from core's assignmentSchema: the assignment (`a`) with its
 * user (`u`) and content item (`c`). `is_overdue` is core's rule of the day (the view computes it;
 * lists and reports filter on it in SQL).
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { assignmentListSpec, assignmentSchema, type AssignmentRecord, type ContentType, type StoredAssignmentView } from '@lectern/core';
import { assignmentStates, isOutstanding, outstandingStates, type AssignmentState } from '@lectern/core/ports';
import type { Database } from '../schema.ts';
import { filterValues, toBool } from '../listing/list-builder.ts';
import { preparedLookup } from '../shared/prepared-query.ts';
import { defineResource, referenceTo } from '../listing/resource-definition.ts';

/**
 * Core's overdue rule (`isOverdue`, over `outstandingStates`) as SQL on the assignment aliased `a`:
 * the one place storage states it, for the list filter, the report field and the insight. The
 * state list is literal SQL, not bound values, so that SQLite can match it against the partial
 * index `assignments_overdue_idx`; the states are constants of core, never input.
 */
const OUTSTANDING_STATES = sql.raw(outstandingStates.map((state) => `'${state}'`).join(', '));
export function overdueSql(today: string): Expression<SqlBool> {
  return sql<SqlBool>`(a.due_date < ${today} and a.state in (${OUTSTANDING_STATES}))`;
}

/**
 * `a.state in (…)` with the states written into the statement, when each is one of core's (any
 * other value is bound, as input is): a handful of texts, and on PostgreSQL the plan a named page
 * keeps is costed for the states asked for rather than for an average one. Bound, a content item's
 * page of `completed` looked dearer as a kept plan than planned for the value, and PostgreSQL
 * planned it at every request (docs/scaling.md, "Lists and reports at a million assignments").
 */
const statesIn = (states: readonly string[]): Expression<SqlBool> | undefined =>
  states.length > 0 && states.every((state) => (assignmentStates as readonly string[]).includes(state))
    ? sql<SqlBool>`a.state in (${sql.join(states.map((state) => sql.lit(state)))})`
    : undefined;

/** A condition as a 0/1 column, the way booleans are stored, so reports compare it like one. */
const flag = (condition: Expression<SqlBool>) => sql<number>`(CASE WHEN ${condition} THEN 1 ELSE 0 END)`;

/** An assignment list's table: the assignment, `a`. */
export type AssignmentTables = { a: 'assignments' };

type AssignmentInternals = {
  id: number;
  userId: number;
  contentId: number;
  contentType: ContentType;
  isCompletable: number;
  enrollmentId: number | null;
  progressBeforeCompletion: number | null;
};

export const assignmentResource = defineResource<
  StoredAssignmentView,
  AssignmentInternals,
  AssignmentTables,
  { u: 'users'; c: 'content_items' }
>(assignmentSchema, assignmentListSpec, {
  table: 'assignments',
  alias: 'a',
  internal: {
    id: 'a.id',
    userId: 'a.user_id',
    contentId: 'a.content_id',
    contentType: 'c.content_type',
    isCompletable: 'c.is_completable',
    enrollmentId: 'a.enrollment_id',
    progressBeforeCompletion: 'a.progress_before_completion',
  },
  fields: {
    is_overdue: {
      column: ({ today }) => flag(overdueSql(today)),
      unselected: true,
      // with a due date the rule is never NULL, so NOT is its exact complement
      filter: (eb, value, { today }) =>
        value === true ? overdueSql(today) : eb.or([eb('a.due_date', 'is', null), eb.not(overdueSql(today))]),
    },
    is_enrollment_managed: { column: () => flag(sql<SqlBool>`a.enrollment_id IS NOT NULL`) },
    state: {
      // outstanding states alone also name the overdue index's own condition, which SQLite needs
      // to see literally before it reads that partial index (for `state` with a due date range)
      filter: (eb, value) => {
        const states = filterValues(value);
        const matches = statesIn(states) ?? eb('a.state', 'in', states);
        return states.every((state) => isOutstanding(state as AssignmentState))
          ? eb.and([matches, sql<SqlBool>`a.state in (${OUTSTANDING_STATES})`])
          : matches;
      },
    },
  },
  references: {
    user: referenceTo('users', 'u', 'a.user_id', 'inner'),
    content_item: referenceTo('content_items', 'c', 'a.content_id', 'inner'),
  },
  filters: {
    content_type: (eb, value) =>
      eb(
        'a.content_id',
        'in',
        eb
          .selectFrom('content_items as tf')
          .select('tf.id')
          .where('tf.content_type', 'in', value as string[]),
      ),
  },
  tiebreak: 'a.id',
  indexes: {
    narrow: { user: 'assignments_pair_idx', content_item: 'assignments_content_created_idx' },
    ordered: { created: 'assignments_created_idx' },
  },
});

export function toAssignmentRecord({ internal, view }: ReturnType<typeof assignmentResource.toRecord>): AssignmentRecord {
  // not a spread followed by more properties, which V8 builds property by property (see recordOf)
  const record = Object.assign({}, internal) as unknown as AssignmentRecord;
  record.isCompletable = toBool(internal.isCompletable as number);
  record.data = view;
  return record;
}

/** Every read of live assignments starts here. */
export const selectAssignments = (db: Kysely<Database>) => assignmentResource.read(db).where('a.deleted_at', 'is', null);

// the per-request lookups, compiled once (see prepared-query.ts)
type Row = Record<string, unknown>;
export const assignmentByPublicId = preparedLookup<Row, [publicId: string]>(1, (db, publicId) =>
  selectAssignments(db).where('a.public_id', '=', publicId),
);
export const assignmentById = preparedLookup<Row, [id: number]>(1, (db, id) => selectAssignments(db).where('a.id', '=', id));
export const assignmentByPair = preparedLookup<Row, [userId: number, contentId: number]>(2, (db, userId, contentId) =>
  selectAssignments(db).where('a.user_id', '=', userId).where('a.content_id', '=', contentId),
);
