import { sql, type Expression, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type {
  AssignmentChanges,
  AssignmentListOptions,
  AssignmentRecord,
  AssignmentState,
  AssignmentStore,
  ContentType,
  ContentViewer,
  ListQuery,
  NewAssignmentRow,
  Page,
  TrackGraph,
  TrackItemStatus,
  TrackNode,
} from '@lectern/core';
import { outstandingStates } from '@lectern/core';
import { visibleTo } from '../content/content-repository.ts';
import type { AssignmentsTable, Database } from '../schema.ts';
import { applyFilters, fetchPage, fromBool, toBool, type ListDefinition } from '../shared/list-builder.ts';
import { preparedQuery } from '../shared/prepared-query.ts';
import { narrowList, rqlColumn, type ListJoins } from '../reports/rql-list.ts';
import type { RqlSqlFields } from '../reports/rql-to-sql.ts';

/** An assignment read: its own columns with its user's and content item's. */
type AssignmentRow = Omit<Selectable<AssignmentsTable>, 'deleted_at'> & {
  user_public_id: string;
  user_name: string;
  user_email: string;
  content_public_id: string;
  content_name: string;
  content_type: string;
  is_completable: number;
};

/** The columns of every assignment read: the assignment (`a`) with its user (`u`) and content (`c`). */
const assignmentColumns = [
  'a.id',
  'a.public_id',
  'a.user_id',
  'a.content_id',
  'a.enrollment_id',
  'a.state',
  'a.progress',
  'a.progress_before_completion',
  'a.score',
  'a.is_success',
  'a.due_date',
  'a.expires_at',
  'a.started_at',
  'a.completed_datetime',
  'a.dropped_at',
  'a.exempted_at',
  'a.feedback_rating',
  'a.feedback_text',
  'a.drop_reason',
  'a.attempt',
  'a.created',
  'a.modified',
  'u.public_id as user_public_id',
  'u.name as user_name',
  'u.email as user_email',
  'c.public_id as content_public_id',
  'c.name as content_name',
  'c.content_type',
  'c.is_completable',
] as const;

function selectAssignments(db: Kysely<Database>) {
  return db
    .selectFrom('assignments as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .innerJoin('content_items as c', 'c.id', 'a.content_id')
    .select(assignmentColumns)
    .where('a.deleted_at', 'is', null);
}

const byPublicId = preparedQuery<AssignmentRow>(1, (db, publicId) => selectAssignments(db).where('a.public_id', '=', publicId!));
const byId = preparedQuery<AssignmentRow>(1, (db, id) => selectAssignments(db).where('a.id', '=', id as unknown as number));
const byPair = preparedQuery<AssignmentRow>(2, (db, userId, contentId) =>
  selectAssignments(db)
    .where('a.user_id', '=', userId as unknown as number)
    .where('a.content_id', '=', contentId as unknown as number),
);

function toRecord(row: AssignmentRow): AssignmentRecord {
  const contentType = row.content_type as ContentType;
  return {
    id: row.id,
    userId: row.user_id,
    contentId: row.content_id,
    contentType,
    isCompletable: toBool(row.is_completable),
    enrollmentId: row.enrollment_id,
    progressBeforeCompletion: row.progress_before_completion,
    data: {
      public_id: row.public_id,
      user: { public_id: row.user_public_id, name: row.user_name, email: row.user_email },
      content_item: { public_id: row.content_public_id, name: row.content_name, content_type: contentType },
      state: row.state as AssignmentState,
      progress: row.progress,
      score: row.score,
      is_success: row.is_success === null ? null : toBool(row.is_success),
      due_date: row.due_date,
      started_at: row.started_at,
      completed_datetime: row.completed_datetime,
      dropped_at: row.dropped_at,
      exempted_at: row.exempted_at,
      expires_at: row.expires_at,
      feedback_rating: row.feedback_rating,
      feedback_text: row.feedback_text,
      drop_reason: row.drop_reason,
      attempt: row.attempt,
      is_enrollment_managed: row.enrollment_id !== null,
      created: row.created,
      modified: row.modified,
    },
  };
}

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
 * The assignments report catalogue (core: reportResourceDefinitions.assignments) over the list
 * query's aliases. `is_overdue` depends on the day, as the view's does.
 */
export function assignmentRqlFields(today: string): RqlSqlFields {
  const flag = (condition: Expression<SqlBool>) => ({
    kind: 'scalar' as const,
    column: sql<number>`(CASE WHEN ${condition} THEN 1 ELSE 0 END)`,
  });
  return {
    public_id: rqlColumn('a.public_id'),
    'user.public_id': rqlColumn('u.public_id'),
    'user.name': rqlColumn('u.name'),
    'user.email': rqlColumn('u.email', 'u.email_lower'),
    'content_item.public_id': rqlColumn('c.public_id'),
    'content_item.name': rqlColumn('c.name'),
    'content_item.content_type': rqlColumn('c.content_type'),
    state: rqlColumn('a.state'),
    progress: rqlColumn('a.progress'),
    score: rqlColumn('a.score'),
    is_success: rqlColumn('a.is_success'),
    due_date: rqlColumn('a.due_date'),
    is_overdue: flag(overdueSql(today)),
    started_at: rqlColumn('a.started_at'),
    completed_datetime: rqlColumn('a.completed_datetime'),
    dropped_at: rqlColumn('a.dropped_at'),
    exempted_at: rqlColumn('a.exempted_at'),
    expires_at: rqlColumn('a.expires_at'),
    feedback_rating: rqlColumn('a.feedback_rating'),
    feedback_text: rqlColumn('a.feedback_text'),
    drop_reason: rqlColumn('a.drop_reason'),
    attempt: rqlColumn('a.attempt'),
    is_enrollment_managed: flag(sql<SqlBool>`a.enrollment_id IS NOT NULL`),
    created: rqlColumn('a.created'),
    modified: rqlColumn('a.modified'),
  };
}

const assignmentJoins: ListJoins = {
  u: (query) => query.innerJoin('users as u', 'u.id', 'a.user_id'),
  c: (query) => query.innerJoin('content_items as c', 'c.id', 'a.content_id'),
};

function listDefinition(today: string): ListDefinition {
  return {
    filters: {
      user: (eb, value) => eb('a.user_id', '=', eb.selectFrom('users as uf').select('uf.id').where('uf.public_id', '=', value)),
      content_item: (eb, value) =>
        eb('a.content_id', '=', eb.selectFrom('content_items as cf').select('cf.id').where('cf.public_id', '=', value)),
      state: (eb, value) => eb('a.state', 'in', value as string[]),
      content_type: (eb, value) =>
        eb(
          'a.content_id',
          'in',
          eb
            .selectFrom('content_items as tf')
            .select('tf.id')
            .where('tf.content_type', 'in', value as string[]),
        ),
      // with a due date the rule is never NULL, so NOT is its exact complement
      is_overdue: (eb, value) => (value === true ? overdueSql(today) : eb.or([eb('a.due_date', 'is', null), eb.not(overdueSql(today))])),
    },
    ranges: { due_date: 'a.due_date', created: 'a.created' },
    ordering: { created: 'a.created', modified: 'a.modified', due_date: 'a.due_date' },
    tiebreak: 'a.id',
  };
}

/** The facts of one live assignment that the derived counts depend on. */
interface StatKey {
  contentId: number;
  state: string;
  rating: number;
  success: number;
  reviewed: number;
}

interface StatColumns {
  content_id: number;
  state: string;
  feedback_rating: number | null;
  is_success: number | null;
  feedback_text: string | null;
  deleted_at: string | null;
}

const statKeyOf = (row: StatColumns): StatKey | null =>
  row.deleted_at !== null
    ? null
    : {
        contentId: row.content_id,
        state: row.state,
        rating: row.feedback_rating ?? 0,
        success: row.is_success ?? 2,
        reviewed: row.feedback_text ? 1 : 0,
      };

const sameKey = (a: StatKey | null, b: StatKey | null) =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.contentId === b.contentId &&
    a.state === b.state &&
    a.rating === b.rating &&
    a.success === b.success &&
    a.reviewed === b.reviewed);

/** What one live assignment adds to its content item's counters; dropped ones rate nothing. */
function contentContribution(key: StatKey) {
  const rated = key.rating > 0 && key.state !== 'dropped';
  return { total: 1, completed: key.state === 'completed' ? 1 : 0, ratingSum: rated ? key.rating : 0, ratingCount: rated ? 1 : 0 };
}

export class AssignmentRepository implements AssignmentStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewAssignmentRow): Promise<number> {
    const inserted = await this.db
      .insertInto('assignments')
      .values({
        public_id: row.publicId,
        user_id: row.userId,
        content_id: row.contentId,
        enrollment_id: row.enrollmentId,
        state: 'not_started',
        progress: 0,
        due_date: row.dueDate,
        expires_at: row.expiresAt,
        attempt: 1,
        created: row.created,
        modified: row.created,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.moveCounts(null, { contentId: row.contentId, state: 'not_started', rating: 0, success: 2, reviewed: 0 });
    return inserted.id;
  }

  async update(id: number, changes: AssignmentChanges): Promise<void> {
    const before = await this.statColumns(id);
    const columns = Object.fromEntries(
      Object.entries({
        state: changes.state,
        progress: changes.progress,
        progress_before_completion: changes.progressBeforeCompletion,
        score: changes.score,
        is_success: changes.isSuccess === undefined || changes.isSuccess === null ? changes.isSuccess : fromBool(changes.isSuccess),
        due_date: changes.dueDate,
        expires_at: changes.expiresAt,
        started_at: changes.startedAt,
        completed_datetime: changes.completedDatetime,
        dropped_at: changes.droppedAt,
        exempted_at: changes.exemptedAt,
        feedback_rating: changes.feedbackRating,
        feedback_text: changes.feedbackText,
        drop_reason: changes.dropReason,
        attempt: changes.attempt,
        enrollment_id: changes.enrollmentId,
        modified: changes.modified,
      }).filter(([, value]) => value !== undefined),
    );
    await this.db.updateTable('assignments').set(columns).where('id', '=', id).execute();
    if (before) await this.moveCounts(statKeyOf(before), statKeyOf({ ...before, ...(columns as Partial<StatColumns>) }));
  }

  async softDelete(id: number, at: string): Promise<void> {
    const before = await this.statColumns(id);
    await this.db.updateTable('assignments').set({ deleted_at: at, modified: at }).where('id', '=', id).execute();
    if (before) await this.moveCounts(statKeyOf(before), null);
  }

  async findById(id: number): Promise<AssignmentRecord | undefined> {
    const [row] = await byId(this.db, id);
    return row ? toRecord(row) : undefined;
  }

  async findByPublicId(publicId: string): Promise<AssignmentRecord | undefined> {
    const [row] = await byPublicId(this.db, publicId);
    return row ? toRecord(row) : undefined;
  }

  async findLive(userId: number, contentId: number): Promise<AssignmentRecord | undefined> {
    const [row] = await byPair(this.db, userId, contentId);
    return row ? toRecord(row) : undefined;
  }

  /**
   * A saved report's `user.email` joins the user before filtering, which makes it a condition of
   * this query that SQLite can start from (users_email_idx, then the pair index).
   */
  async list(query: ListQuery, options: AssignmentListOptions): Promise<Page<AssignmentRecord>> {
    const definition = listDefinition(options.today);
    let filtered = this.db.selectFrom('assignments as a').where('a.deleted_at', 'is', null);
    if (options.ownerId !== null) filtered = filtered.where('a.user_id', '=', options.ownerId);
    filtered = applyFilters(filtered, query, definition);
    const narrowed = narrowList(filtered, query, definition, assignmentRqlFields(options.today), assignmentJoins, options);
    const { rows, total } = await fetchPage<AssignmentRow>(narrowed.filtered, narrowed.query, narrowed.definition, (q) =>
      narrowed.joinRest(q).select(assignmentColumns),
    );
    return { total, items: rows.map(toRecord) };
  }

  async trackGraph(rootId: number, viewer: ContentViewer): Promise<TrackGraph> {
    // walks down through tracks and scheduled tracks only: a held collection is assigned whole
    const edges = await sql<{ parent_id: number; item_id: number; position: number }>`
      with recursive below(parent_id, item_id, position) as (
        select t.parent_id, t.item_id, t.position from content_track_items t where t.parent_id = ${rootId}
        union
        select t.parent_id, t.item_id, t.position from content_track_items t
          join below b on t.parent_id = b.item_id
          join content_items p on p.id = b.item_id
          where p.deleted_at is null and p.content_type in ('track', 'scheduled_track')
      )
      select parent_id, item_id, position from below`.execute(this.db);
    const ids = [...new Set(edges.rows.map((edge) => edge.item_id))];
    const nodes = new Map<number, TrackNode>();
    if (ids.length > 0) {
      const rows = await this.db
        .selectFrom('content_items as ci')
        .select(['ci.id', 'ci.content_type', 'ci.is_archived'])
        .where('ci.id', 'in', ids)
        .where((eb) => visibleTo(eb, viewer, 'ci'))
        .execute();
      for (const row of rows) {
        nodes.set(row.id, { id: row.id, contentType: row.content_type as ContentType, isArchived: toBool(row.is_archived), visible: true });
      }
    }
    return {
      nodes,
      edges: edges.rows.map((edge) => ({ parentId: edge.parent_id, itemId: edge.item_id, position: edge.position })),
    };
  }

  async trackAssignmentsHolding(userId: number, contentId: number): Promise<AssignmentRecord[]> {
    const rows = await selectAssignments(this.db)
      .where('a.user_id', '=', userId)
      .where('c.deleted_at', 'is', null)
      .where('c.content_type', 'in', ['track', 'scheduled_track'])
      .where('a.content_id', 'in', (eb) =>
        eb.selectFrom('content_track_items as t').select('t.parent_id').where('t.item_id', '=', contentId),
      )
      .execute();
    return rows.map(toRecord);
  }

  async trackItemStatuses(trackId: number, userId: number): Promise<TrackItemStatus[]> {
    const rows = await this.db
      .selectFrom('content_items as ci')
      .leftJoin('assignments as a', (join) =>
        join.onRef('a.content_id', '=', 'ci.id').on('a.user_id', '=', userId).on('a.deleted_at', 'is', null),
      )
      .select(['ci.is_completable', 'a.state'])
      .where('ci.deleted_at', 'is', null)
      .where('ci.id', 'in', (eb) => eb.selectFrom('content_track_items as t').select('t.item_id').where('t.parent_id', '=', trackId))
      .execute();
    return rows.map((row) => ({ state: (row.state as AssignmentState | null) ?? null, isCompletable: toBool(row.is_completable) }));
  }

  private statColumns(id: number): Promise<StatColumns | undefined> {
    return this.db
      .selectFrom('assignments')
      .select(['content_id', 'state', 'feedback_rating', 'is_success', 'feedback_text', 'deleted_at'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Moves one assignment's weight from `before` to `after` in the statistics and its content's counters. */
  private async moveCounts(before: StatKey | null, after: StatKey | null): Promise<void> {
    if (sameKey(before, after)) return;
    if (before) await this.bumpStat(before, -1);
    if (after) await this.bumpStat(after, 1);
    const contentIds = new Set([before?.contentId, after?.contentId].filter((id): id is number => id !== undefined));
    for (const contentId of contentIds) {
      const minus = before && before.contentId === contentId ? contentContribution(before) : null;
      const plus = after && after.contentId === contentId ? contentContribution(after) : null;
      const delta = (field: keyof ReturnType<typeof contentContribution>) => (plus?.[field] ?? 0) - (minus?.[field] ?? 0);
      if (delta('total') === 0 && delta('completed') === 0 && delta('ratingSum') === 0 && delta('ratingCount') === 0) continue;
      await this.db
        .updateTable('content_items')
        .set((eb) => ({
          total_assignments: eb('total_assignments', '+', delta('total')),
          completed_assignments_count: eb('completed_assignments_count', '+', delta('completed')),
          rating_sum: eb('rating_sum', '+', delta('ratingSum')),
          rating_count: eb('rating_count', '+', delta('ratingCount')),
        }))
        .where('id', '=', contentId)
        .execute();
    }
  }

  private async bumpStat(key: StatKey, by: number): Promise<void> {
    await this.db
      .insertInto('assignment_stats')
      .values({ content_id: key.contentId, state: key.state, rating: key.rating, success: key.success, reviewed: key.reviewed, n: by })
      .onConflict((oc) =>
        oc
          .columns(['content_id', 'state', 'rating', 'success', 'reviewed'])
          .doUpdateSet((eb) => ({ n: eb('assignment_stats.n', '+', by) })),
      )
      .execute();
  }
}
