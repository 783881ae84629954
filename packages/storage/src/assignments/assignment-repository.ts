import { sql, type Kysely } from 'kysely';
import type { AssignmentRecord, ContentType, ListQuery, Page } from '@lectern/core';
import type {
  AssignmentChanges,
  AssignmentListOptions,
  AssignmentState,
  AssignmentStore,
  ContentViewer,
  NewAssignmentRow,
  TrackGraph,
  TrackItemStatus,
  TrackNode,
} from '@lectern/core/ports';
import { visibleTo } from '../content/content-visibility.ts';
import type { Database } from '../schema.ts';
import { toBool, type AnyEb } from '../shared/list-builder.ts';
import { assignmentListHints } from './assignment-list-hints.ts';
import { applyCounts, contentTypeOf, countedRowOf, factsOf, type CountedRow } from './assignment-counts.ts';
import {
  assignmentById,
  assignmentByPair,
  assignmentByPublicId,
  assignmentResource,
  selectAssignments,
  toAssignmentRecord,
} from './assignment-resource.ts';
import { insertRow } from '../shared/insert-row.ts';

export { overdueSql } from './assignment-resource.ts';

export class AssignmentRepository implements AssignmentStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewAssignmentRow): Promise<number> {
    const id = await insertRow(this.db, 'assignments', {
      ...assignmentResource.toColumns(row),
      state: 'not_started',
      progress: 0,
      attempt: 1,
      modified: row.created,
    });
    await applyCounts(this.db, null, {
      userId: row.userId,
      contentId: row.contentId,
      contentType: await contentTypeOf(this.db, row.contentId),
      state: 'not_started',
      rating: 0,
      success: 2,
      reviewed: 0,
      dueDate: row.dueDate,
    });
    return id;
  }

  async update(id: number, changes: AssignmentChanges): Promise<void> {
    const before = await countedRowOf(this.db, id);
    const columns = assignmentResource.toColumns(changes);
    await this.db.updateTable('assignments').set(columns).where('id', '=', id).execute();
    if (before) await applyCounts(this.db, factsOf(before), factsOf({ ...before, ...(columns as Partial<CountedRow>) }));
  }

  async softDelete(id: number, at: string): Promise<void> {
    const before = await countedRowOf(this.db, id);
    await this.db.updateTable('assignments').set({ deleted_at: at, modified: at }).where('id', '=', id).execute();
    if (before) await applyCounts(this.db, factsOf(before), null);
  }

  async findById(id: number): Promise<AssignmentRecord | undefined> {
    const row = await assignmentById(this.db, id);
    return row ? toAssignmentRecord(assignmentResource.toRecord(row)) : undefined;
  }

  async findByPublicId(publicId: string): Promise<AssignmentRecord | undefined> {
    const row = await assignmentByPublicId(this.db, publicId);
    return row ? toAssignmentRecord(assignmentResource.toRecord(row)) : undefined;
  }

  async findLive(userId: number, contentId: number): Promise<AssignmentRecord | undefined> {
    const row = await assignmentByPair(this.db, userId, contentId);
    return row ? toAssignmentRecord(assignmentResource.toRecord(row)) : undefined;
  }

  /**
   * A saved report's `user.email` joins the user before filtering, which makes it a condition of
   * this query that SQLite can start from (users_email_idx, then the pair index); the hints say
   * what else is known (assignment-list-hints.ts).
   */
  async list(query: ListQuery, options: AssignmentListOptions): Promise<Page<AssignmentRecord>> {
    let live = this.db.selectFrom('assignments as a').where('a.deleted_at', 'is', null);
    if (options.ownerId !== null) live = live.where('a.user_id', '=', options.ownerId);
    const hints = await assignmentListHints(this.db, query, options);
    const { total, records } = await assignmentResource.page(this.db, live, query, options, { today: options.today }, hints);
    return { total, items: records.map(toAssignmentRecord) };
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
      .where('a.content_id', 'in', (eb: AnyEb) =>
        eb.selectFrom('content_track_items as t').select('t.parent_id').where('t.item_id', '=', contentId),
      )
      .execute();
    return rows.map((row) => toAssignmentRecord(assignmentResource.toRecord(row)));
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
}
