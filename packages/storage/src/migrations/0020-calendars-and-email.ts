import { sql, type Kysely } from 'kysely';
import { identity, withoutRowid } from './dialect.ts';

/**
 * Calendars and email (docs/notifications.md):
 * - `event_details.calendar_sequence`: the iCalendar SEQUENCE, raised by every change of the event
 *   so calendar clients replace what they hold.
 * - `calendar_feeds`: one personal feed key per user, kept as its SHA-256 only.
 * - `users.email_notifications`: the opt-out (default on).
 * - `notifications`: the email queue, written in the transaction of the change that causes a
 *   message and claimed by a worker on any instance, as webhook deliveries are.
 * - `assignment_reminders`: one row per assignment and reminder kind once it has been queued; its
 *   primary key is what makes a reminder fire once with several instances and after restarts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('event_details')
    .addColumn('calendar_sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('email_notifications', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('calendar_feeds')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'integer', identity(db))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('subject', 'text', (c) => c.notNull())
    // the rendered message's inputs (JSON): sending needs no other read
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'text')
    .addColumn('lease_owner', 'text')
    // the one-click unsubscribe address's key: it can only turn the user's email off
    .addColumn('unsubscribe_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  // the worker's claim: only pending rows are in it, so its size is the backlog
  await db.schema
    .createIndex('notifications_due_idx')
    .on('notifications')
    .columns(['next_attempt_at', 'id'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('notifications_kind_idx').on('notifications').columns(['kind', 'id']).execute();
  await db.schema.createIndex('notifications_status_idx').on('notifications').columns(['status', 'id']).execute();

  // the reminder sweep reads open assignments by due date: only those are in this index
  await db.schema
    .createIndex('assignments_open_due_idx')
    .on('assignments')
    .columns(['due_date', 'id'])
    .where(sql<boolean>`deleted_at is null and due_date is not null and state in ('not_started', 'in_progress')`)
    .execute();
  await sql`create table assignment_reminders (
    assignment_id integer not null,
    kind text not null,
    created text not null,
    primary key (assignment_id, kind)
  )${withoutRowid(db)}`.execute(db);
}
