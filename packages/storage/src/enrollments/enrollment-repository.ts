import { sql, type Kysely } from 'kysely';
import { enrollmentListSpec, enrollmentSchema, type Enrollment, type EnrollmentRecord, type ListQuery, type Page } from '@lectern/core';
import {
  type AttendanceMethod,
  type EnrollmentChanges,
  type EnrollmentStatus,
  type EnrollmentListOptions,
  type EnrollmentStore,
  type NewEnrollmentRow,
} from '@lectern/core/ports';
import type { Database, Tables } from '../schema.ts';
import type { Condition } from '../listing/list-definition.ts';
import { defineResource, referenceTo } from '../listing/resource-definition.ts';
import { insertRows } from '../shared/insert-row.ts';
import { valuesList } from '../shared/values-list.ts';
import { reserveIds } from '../shared/reserve-ids.ts';
import { changeSeatCounts, seatCountsOf } from './seat-counts.ts';

type EnrollmentInternals = {
  id: number;
  userId: number;
  eventId: number;
  assignmentId: number | null;
};

/**
 * Enrollments, from core's enrollmentSchema: the enrollment (`e`) with its user (`u`), its event
 * (`ev`) and the assignment it owns (`a`), whose state the view shows. Enrollments of a deleted event
 * stay, as the assignments of deleted content do: they are history, and the only handle on the
 * assignments they own.
 */
const enrollmentResource = defineResource<
  Enrollment,
  EnrollmentInternals,
  { e: 'enrollments' },
  { u: 'users'; ev: 'content_items'; a: 'assignments' }
>(enrollmentSchema, enrollmentListSpec, {
  table: 'enrollments',
  alias: 'e',
  internal: { id: 'e.id', userId: 'e.user_id', eventId: 'e.event_id', assignmentId: 'e.assignment_id' },
  fields: {
    state: {
      column: () => sql<string>`coalesce(a.state, 'not_started')`,
      join: 'a',
      filter: (eb, value) =>
        eb(
          'e.assignment_id',
          'in',
          eb
            .selectFrom('assignments as sf')
            .select('sf.id')
            .where('sf.state', 'in', value as string[]),
        ),
    },
  },
  references: {
    user: referenceTo('users', 'u', 'e.user_id', 'inner'),
    event: referenceTo('content_items', 'ev', 'e.event_id', 'inner'),
  },
  // the owned assignment, deleted or not: a dropped enrollment keeps reading its dropped assignment
  joins: { a: (query) => query.leftJoin('assignments as a', 'a.id', 'e.assignment_id') },
  filters: {
    is_checked_in: (eb, value) => eb('e.checkin_datetime', value === true ? 'is not' : 'is', null),
  },
  tiebreak: 'e.id',
});

const toEnrollmentRecord = (row: Record<string, unknown>) => asEnrollmentRecord(enrollmentResource.toRecord(row));

function asEnrollmentRecord({ internal, view }: ReturnType<typeof enrollmentResource.toRecord>): EnrollmentRecord {
  return {
    ...internal,
    assignmentId: internal.assignmentId ?? 0,
    method: view.attendance_method,
    status: view.status,
    checkinDatetime: view.checkin_datetime,
    state: view.state,
    view,
  };
}

export class EnrollmentRepository implements EnrollmentStore {
  constructor(private readonly db: Kysely<Database>) {}

  reserveIds(count: number): Promise<number[]> {
    return reserveIds(this.db, 'enrollments', count);
  }

  async insertMany(rows: readonly NewEnrollmentRow[]): Promise<void> {
    await insertRows(
      this.db,
      'enrollments',
      // added to toColumns' fresh object, not spread into a new one (assignment-repository.ts)
      rows.map((row) =>
        Object.assign(enrollmentResource.toColumns({ ...row, method: undefined }), {
          public_id: row.publicId,
          attendance_method: row.method,
          modified: row.created,
        }),
      ),
    );
    await changeSeatCounts(
      this.db,
      rows.map((row) => ({ eventId: row.eventId, method: row.method, status: row.status, by: 1 })),
    );
  }

  async findByIds(ids: readonly number[]): Promise<EnrollmentRecord[]> {
    if (ids.length === 0) return [];
    const records = new Map(
      (await enrollmentResource.read(this.db).where('e.id', 'in', ids).execute())
        .map(toEnrollmentRecord)
        .map((record) => [record.id, record]),
    );
    return ids.map((id) => records.get(id)!);
  }

  async activePairs(pairs: ReadonlyArray<{ eventId: number; userId: number }>): Promise<Set<string>> {
    if (pairs.length === 0) return new Set();
    const listed = valuesList(
      this.db,
      pairs.map(({ eventId, userId }) => [eventId, userId]),
      ['integer', 'integer'],
    );
    const rows = await sql<{ event_id: number; user_id: number }>`
      with p(event_id, user_id) as (${listed})
      select e.event_id, e.user_id from p
        join enrollments e on e.event_id = p.event_id and e.user_id = p.user_id
      where e.status <> 'dropped'`.execute(this.db);
    return new Set(rows.rows.map((row) => `${row.event_id}:${row.user_id}`));
  }

  async update(id: number, changes: EnrollmentChanges): Promise<void> {
    // the seat it held before, read in the same transaction as the write
    const before =
      changes.status === undefined
        ? undefined
        : await this.db
            .selectFrom('enrollments')
            .select(['event_id', 'attendance_method', 'status'])
            .where('id', '=', id)
            .executeTakeFirst();
    await this.db.updateTable('enrollments').set(enrollmentResource.toColumns(changes)).where('id', '=', id).execute();
    if (before && changes.status !== undefined && changes.status !== before.status) {
      const seat = { eventId: before.event_id, method: before.attendance_method as AttendanceMethod };
      await changeSeatCounts(this.db, [
        { ...seat, status: before.status as EnrollmentStatus, by: -1 },
        { ...seat, status: changes.status, by: 1 },
      ]);
    }
  }

  findById(id: number): Promise<EnrollmentRecord | undefined> {
    return this.findOne((eb) => eb('e.id', '=', id));
  }

  findByPublicId(publicId: string): Promise<EnrollmentRecord | undefined> {
    return this.findOne((eb) => eb('e.public_id', '=', publicId));
  }

  findActive(eventId: number, userId: number): Promise<EnrollmentRecord | undefined> {
    return this.findOne((eb) => eb.and([eb('e.event_id', '=', eventId), eb('e.user_id', '=', userId), eb('e.status', '<>', 'dropped')]));
  }

  async countActive(eventId: number, method: AttendanceMethod): Promise<{ enrolled: number; waitlisted: number }> {
    return (await seatCountsOf(this.db, [eventId])).get(eventId)![method];
  }

  async oldestWaitlisted(eventId: number, method: AttendanceMethod, limit: number): Promise<EnrollmentRecord[]> {
    if (limit <= 0) return [];
    const rows = await enrollmentResource
      .read(this.db)
      .where('e.event_id', '=', eventId)
      .where('e.attendance_method', '=', method)
      .where('e.status', '=', 'waitlisted')
      .orderBy('e.created')
      .orderBy('e.id')
      .limit(limit)
      .execute();
    return rows.map(toEnrollmentRecord);
  }

  async list(query: ListQuery, options: EnrollmentListOptions): Promise<Page<EnrollmentRecord>> {
    let mine = this.db.selectFrom('enrollments as e');
    if (options.ownerId !== null) mine = mine.where('e.user_id', '=', options.ownerId);
    const { total, records } = await enrollmentResource.page(this.db, mine, query, options);
    return { total, items: records.map(asEnrollmentRecord) };
  }

  private async findOne(where: Condition<Tables<{ e: 'enrollments' }>, 'e'>): Promise<EnrollmentRecord | undefined> {
    const row = await enrollmentResource.read(this.db).where(where).executeTakeFirst();
    return row ? toEnrollmentRecord(row) : undefined;
  }
}
