import { sql, type Kysely } from 'kysely';
import { identity } from './dialect.ts';

/**
 * Locations, what events and event series keep beside their content row (settings, facilitators
 * and, for events, timeslots), and enrollments. The instants of the timeslots and the event's span
 * are stored, computed once from the location's zone, so lists filter and sort by them in SQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('locations')
    .addColumn('id', 'integer', identity(db))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('event_details')
    .addColumn('content_id', 'integer', (c) => c.primaryKey().references('content_items.id'))
    // the series an event was scheduled from; null for a series and for a standalone event
    .addColumn('series_id', 'integer', (c) => c.references('content_items.id'))
    .addColumn('location_id', 'integer', (c) => c.references('locations.id'))
    .addColumn('is_local', 'integer', (c) => c.notNull())
    .addColumn('is_online', 'integer', (c) => c.notNull())
    .addColumn('enrollment_limit', 'integer', (c) => c.notNull())
    .addColumn('wait_list_limit', 'integer', (c) => c.notNull())
    .addColumn('online_enrollment_limit', 'integer', (c) => c.notNull())
    .addColumn('online_wait_list_limit', 'integer', (c) => c.notNull())
    .addColumn('body_markdown', 'text')
    .addColumn('external_link', 'text')
    .addColumn('external_link_description', 'text')
    .addColumn('cover_url', 'text')
    // an event's span over its timeslots; null for a series
    .addColumn('starts_at', 'text')
    .addColumn('ends_at', 'text')
    .addColumn('starts_at_utc', 'text')
    .addColumn('ends_at_utc', 'text')
    .execute();
  for (const column of ['series_id', 'location_id', 'starts_at_utc']) {
    await db.schema.createIndex(`event_details_${column}_idx`).on('event_details').columns([column, 'content_id']).execute();
  }

  await db.schema
    .createTable('event_timeslots')
    .addColumn('id', 'integer', identity(db))
    .addColumn('event_id', 'integer', (c) => c.notNull().references('content_items.id'))
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text', (c) => c.notNull())
    .addColumn('starts_at_utc', 'text', (c) => c.notNull())
    .addColumn('ends_at_utc', 'text', (c) => c.notNull())
    .addColumn('duration_minutes', 'integer', (c) => c.notNull())
    .addColumn('rooms_info', 'text', (c) => c.notNull())
    .addColumn('watch_link', 'text')
    .execute();
  await db.schema.createIndex('event_timeslots_event_idx').on('event_timeslots').columns(['event_id', 'starts_at_utc', 'id']).execute();

  await db.schema
    .createTable('event_facilitators')
    .addColumn('content_id', 'integer', (c) => c.notNull().references('content_items.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addPrimaryKeyConstraint('event_facilitators_pk', ['content_id', 'role', 'position'])
    .execute();
  await db.schema.createIndex('event_facilitators_user_idx').on('event_facilitators').columns(['user_id', 'content_id']).execute();

  await db.schema
    .createTable('enrollments')
    .addColumn('id', 'integer', identity(db))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('event_id', 'integer', (c) => c.notNull().references('content_items.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    // the owned assignment; set in the transaction that creates the enrollment, right after it
    .addColumn('assignment_id', 'integer', (c) => c.references('assignments.id'))
    .addColumn('attendance_method', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('checkin_datetime', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();
  // one active enrollment per user and event, whatever the service does: the last line of defence
  await db.schema
    .createIndex('enrollments_active_idx')
    .on('enrollments')
    .columns(['event_id', 'user_id'])
    .unique()
    .where(sql<boolean>`status <> 'dropped'`)
    .execute();
  // capacity counts and the oldest waitlisted of a method walk this index only
  await db.schema
    .createIndex('enrollments_capacity_idx')
    .on('enrollments')
    .columns(['event_id', 'attendance_method', 'status', 'created', 'id'])
    .execute();
  await db.schema.createIndex('enrollments_user_idx').on('enrollments').columns(['user_id', 'created']).execute();
  await db.schema.createIndex('enrollments_created_idx').on('enrollments').columns(['created']).execute();
}
