import { sql, type Kysely, type OnConflictBuilder } from 'kysely';
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
import { toBool } from '../listing/list-builder.ts';
import { assignmentListHints } from './assignment-list-hints.ts';
import { applyCounterDeltas, applyCounts, contentTypesOf, countedRowOf, factsOf, type CountedRow } from './assignment-counts.ts';
import {
  assignmentById,
  assignmentByPair,
  assignmentByPublicId,
  assignmentResource,
  selectAssignments,
  toAssignmentRecord,
} from './assignment-resource.ts';
import { insertRows, takesCopy } from '../shared/insert-row.ts';
import { jsonRows } from '../postgres/json-insert.ts';
import { dialectOf } from '../shared/dialect.ts';
import { valuesList } from '../shared/values-list.ts';

import { counterDeltas, createdDayOf, mergeCounterDeltas } from '@lectern/core/ports';

export { overdueSql } from './assignment-resource.ts';

/** A new assignment's columns: not_started, no progress, first attempt. */
const newColumns = (row: NewAssignmentRow) =>
  // added to toColumns' fresh object, not spread into a new one: a spread of it cost ~5 µs a row
  Object.assign(assignmentResource.toColumns(row), {
    public_id: row.publicId,
    state: 'not_started',
    progress: 0,
    attempt: 1,
    modified: row.created,
  });
type NewColumns = ReturnType<typeof newColumns>;

/** A row whose pair has a live assignment (the pair index's conflict) is left out, answered undefined. */
const skipLive = (conflict: OnConflictBuilder<Database, 'assignments'>) =>
  conflict.columns(['user_id', 'content_id']).where('deleted_at', 'is', null).doNothing();

export class AssignmentRepository implements AssignmentStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewAssignmentRow): Promise<number> {
    const [id] = await insertRows(this.db, 'assignments', [newColumns(row)]);
    const types = await contentTypesOf(this.db, [row.contentId]);
    await this.countCreated([row], [types.get(row.contentId)!]);
    return id!;
  }

  async insertMissing(rows: readonly NewAssignmentRow[]): Promise<Array<AssignmentRecord | undefined>> {
    const values = rows.map(newColumns);
    const records =
      takesCopy(this.db, values) && dialectOf(this.db).writesInWith ? await this.insertReadBack(values) : await this.insertThenRead(values);
    // counted from the records read back, which carry their content's type
    const written: NewAssignmentRow[] = [];
    const types: string[] = [];
    rows.forEach((row, i) => {
      const record = records[i];
      if (!record) return;
      written.push(row);
      types.push(record.contentType);
    });
    await this.countCreated(written, types);
    return records;
  }

  /** insertMissing's rows inserted, then read back by id with their users and content items. */
  private async insertThenRead(values: ReadonlyArray<NewColumns>): Promise<Array<AssignmentRecord | undefined>> {
    const ids = await insertRows(this.db, 'assignments', values, skipLive);
    const inserted = ids.filter((id): id is number => id !== undefined);
    if (inserted.length === 0) return ids.map(() => undefined);
    const records = new Map(
      (await selectAssignments(this.db).where('a.id', 'in', inserted).execute())
        .map((row) => toAssignmentRecord(assignmentResource.toRecord(row)))
        .map((record) => [record.id, record]),
    );
    return ids.map((id) => (id === undefined ? undefined : records.get(id)));
  }

  /**
   * insertMissing's rows on PostgreSQL, inserted and read back with their users and content items
   * in one statement: the INSERT (its rows one JSON parameter, postgres/json-insert.ts) is a WITH
   * named `assignments`, which the read's `assignments as a` then names instead of the table, so
   * the read is the records' own (selectAssignments) over the rows just written. A read by id
   * afterwards took a round trip and a probe of the primary key per row, and its 500 ids were bound
   * one by one. Matched by public id, since RETURNING promises no order.
   */
  private async insertReadBack(values: ReadonlyArray<NewColumns>): Promise<Array<AssignmentRecord | undefined>> {
    const { columns, rows: source } = jsonRows('assignments', values);
    const written = this.db.with('assignments', (db) =>
      db
        .insertInto('assignments')
        .columns(columns as never)
        .expression(source as never)
        .onConflict(skipLive)
        .returningAll(),
    );
    // the read's tables are those of the database, the WITH standing in for one of them
    const read = await selectAssignments(written as unknown as Kysely<Database>).execute();
    const records = new Map(
      read.map((row) => toAssignmentRecord(assignmentResource.toRecord(row))).map((record) => [record.data.public_id, record]),
    );
    return values.map((row) => records.get(row.public_id));
  }

  /** The counts of new assignments (`types`: each one's content type), added up once for all. */
  private async countCreated(written: readonly NewAssignmentRow[], types: readonly string[]): Promise<void> {
    if (written.length === 0) return;
    // no spread of each row with its type: a spread of a row cost ~5 µs, a million of them an import's
    const created = written.map((row, i) =>
      counterDeltas(null, {
        userId: row.userId,
        contentId: row.contentId,
        contentType: types[i]!,
        state: 'not_started',
        rating: 0,
        success: 2,
        reviewed: 0,
        dueDate: row.dueDate,
        createdDay: createdDayOf(row.created),
      }),
    );
    await applyCounterDeltas(this.db, created.length === 1 ? created[0]! : mergeCounterDeltas(created));
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

  async livePublicIds(pairs: ReadonlyArray<{ userId: number; contentId: number }>): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (pairs.length === 0) return found;
    const listed = valuesList(
      this.db,
      pairs.map(({ userId, contentId }) => [userId, contentId]),
      ['integer', 'integer'],
    );
    const rows = await sql<{ public_id: string; user_id: number; content_id: number }>`
      with p(user_id, content_id) as (${listed})
      select a.public_id, a.user_id, a.content_id from p
        join assignments a on a.user_id = p.user_id and a.content_id = p.content_id
      where a.deleted_at is null`.execute(this.db);
    for (const row of rows.rows) found.set(`${row.user_id}:${row.content_id}`, row.public_id);
    return found;
  }

  async heldByTracks(contentIds: readonly number[]): Promise<Set<number>> {
    if (contentIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('content_track_items as t')
      .innerJoin('content_items as p', 'p.id', 't.parent_id')
      .select('t.item_id')
      .distinct()
      .where('t.item_id', 'in', contentIds)
      .where('p.deleted_at', 'is', null)
      .where('p.content_type', 'in', ['track', 'scheduled_track'])
      .execute();
    return new Set(rows.map((row) => row.item_id));
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
      .where('a.content_id', 'in', (eb) =>
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
