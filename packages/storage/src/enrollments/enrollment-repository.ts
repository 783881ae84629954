import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type {
  AssignmentState,
  AttendanceMethod,
  EnrollmentChanges,
  EnrollmentListOptions,
  EnrollmentRecord,
  EnrollmentStatus,
  EnrollmentStore,
  ListQuery,
  NewEnrollmentRow,
  Page,
} from '@lectern/core';
import type { Database } from '../schema.ts';
import { applyFilters, fetchPage, type AnyEb, type ListDefinition } from '../shared/list-builder.ts';
import { narrowList, rqlColumn } from '../reports/rql-list.ts';
import type { RqlSqlFields } from '../reports/rql-to-sql.ts';

interface EnrollmentRow {
  id: number;
  public_id: string;
  user_id: number;
  event_id: number;
  assignment_id: number | null;
  attendance_method: string;
  status: string;
  checkin_datetime: string | null;
  created: string;
  user_public_id: string;
  user_name: string;
  user_email: string;
  event_public_id: string;
  event_name: string;
  assignment_state: string | null;
}

const enrollmentColumns = [
  'e.id',
  'e.public_id',
  'e.user_id',
  'e.event_id',
  'e.assignment_id',
  'e.attendance_method',
  'e.status',
  'e.checkin_datetime',
  'e.created',
  'u.public_id as user_public_id',
  'u.name as user_name',
  'u.email as user_email',
  'ev.public_id as event_public_id',
  'ev.name as event_name',
  'a.state as assignment_state',
] as const;

const enrollmentListDefinition: ListDefinition = {
  filters: {
    user: (eb, value) => eb('e.user_id', '=', eb.selectFrom('users as uf').select('uf.id').where('uf.public_id', '=', value)),
    event: (eb, value) => eb('e.event_id', '=', eb.selectFrom('content_items as ef').select('ef.id').where('ef.public_id', '=', value)),
    status: (eb, value) => eb('e.status', 'in', value as string[]),
    attendance_method: (eb, value) => eb('e.attendance_method', '=', value),
    state: (eb, value) => eb('a.state', 'in', value as string[]),
    is_checked_in: (eb, value) => eb('e.checkin_datetime', value === true ? 'is not' : 'is', null),
  },
  ranges: { created: 'e.created' },
  ordering: { created: 'e.created' },
  tiebreak: 'e.id',
};

/** The enrollments report catalogue (core: reportResourceDefinitions.enrollments) over the list query's aliases. */
const enrollmentRqlFields: RqlSqlFields = {
  public_id: rqlColumn('e.public_id'),
  'user.public_id': rqlColumn('u.public_id'),
  'user.name': rqlColumn('u.name'),
  'user.email': rqlColumn('u.email', 'u.email_lower'),
  'event.public_id': rqlColumn('ev.public_id'),
  'event.name': rqlColumn('ev.name'),
  status: rqlColumn('e.status'),
  attendance_method: rqlColumn('e.attendance_method'),
  checkin_datetime: rqlColumn('e.checkin_datetime'),
  // as toEnrollmentRecord reads it
  state: { kind: 'scalar', column: sql<string>`coalesce(a.state, 'not_started')` },
  created: rqlColumn('e.created'),
};

function toEnrollmentRecord(row: EnrollmentRow): EnrollmentRecord {
  const state = (row.assignment_state ?? 'not_started') as AssignmentState;
  return {
    id: row.id,
    userId: row.user_id,
    eventId: row.event_id,
    assignmentId: row.assignment_id ?? 0,
    method: row.attendance_method as AttendanceMethod,
    status: row.status as EnrollmentStatus,
    checkinDatetime: row.checkin_datetime,
    state,
    view: {
      public_id: row.public_id,
      user: { public_id: row.user_public_id, name: row.user_name, email: row.user_email },
      event: { public_id: row.event_public_id, name: row.event_name },
      status: row.status as EnrollmentStatus,
      attendance_method: row.attendance_method as AttendanceMethod,
      checkin_datetime: row.checkin_datetime,
      state,
      created: row.created,
    },
  };
}

export class EnrollmentRepository implements EnrollmentStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewEnrollmentRow): Promise<number> {
    const inserted = await this.db
      .insertInto('enrollments')
      .values({
        public_id: row.publicId,
        event_id: row.eventId,
        user_id: row.userId,
        attendance_method: row.method,
        status: row.status,
        created: row.created,
        modified: row.created,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  async update(id: number, changes: EnrollmentChanges): Promise<void> {
    const columns = Object.fromEntries(
      Object.entries({
        status: changes.status,
        checkin_datetime: changes.checkinDatetime,
        assignment_id: changes.assignmentId,
        modified: changes.modified,
      }).filter(([, value]) => value !== undefined),
    );
    await this.db.updateTable('enrollments').set(columns).where('id', '=', id).execute();
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
    const rows = await this.db
      .selectFrom('enrollments')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .where('event_id', '=', eventId)
      .where('attendance_method', '=', method)
      .where('status', 'in', ['enrolled', 'waitlisted'])
      .groupBy('status')
      .execute();
    const count = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0);
    return { enrolled: count('enrolled'), waitlisted: count('waitlisted') };
  }

  async oldestWaitlisted(eventId: number, method: AttendanceMethod, limit: number): Promise<EnrollmentRecord[]> {
    if (limit <= 0) return [];
    const rows = await this.live()
      .select(enrollmentColumns)
      .where('e.event_id', '=', eventId)
      .where('e.attendance_method', '=', method)
      .where('e.status', '=', 'waitlisted')
      .orderBy('e.created')
      .orderBy('e.id')
      .limit(limit)
      .execute();
    return (rows as EnrollmentRow[]).map(toEnrollmentRecord);
  }

  async list(query: ListQuery, options: EnrollmentListOptions): Promise<Page<EnrollmentRecord>> {
    let filtered = this.live();
    if (options.ownerId !== null) filtered = filtered.where('e.user_id', '=', options.ownerId);
    filtered = applyFilters(filtered, query, enrollmentListDefinition);
    // every table a report reads is already joined: the list's own rows embed them all
    const narrowed = narrowList(filtered, query, enrollmentListDefinition, enrollmentRqlFields, {}, options);
    const { rows, total } = await fetchPage<EnrollmentRow>(narrowed.filtered, narrowed.query, narrowed.definition, (q) =>
      q.select(enrollmentColumns),
    );
    return { total, items: rows.map(toEnrollmentRecord) };
  }

  /**
   * Enrollments with what their view embeds. Those of a deleted event stay, as the assignments of
   * deleted content do: they are history, and the only handle on the assignments they own.
   */
  private live() {
    return (
      this.db
        .selectFrom('enrollments as e')
        .innerJoin('users as u', 'u.id', 'e.user_id')
        .innerJoin('content_items as ev', 'ev.id', 'e.event_id')
        // the owned assignment, deleted or not: a dropped enrollment keeps reading its dropped assignment
        .leftJoin('assignments as a', 'a.id', 'e.assignment_id')
    );
  }

  private async findOne(where: (eb: AnyEb) => Expression<SqlBool>): Promise<EnrollmentRecord | undefined> {
    const row = await this.live().select(enrollmentColumns).where(where).executeTakeFirst();
    return row ? toEnrollmentRecord(row as EnrollmentRow) : undefined;
  }
}
