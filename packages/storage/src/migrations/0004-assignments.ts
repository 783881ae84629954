import { sql, type Kysely } from 'kysely';
import { identity, withoutRowid } from './dialect.ts';

/**
 * Assignments with the statistics the insights read, and the durable bulk jobs. Assignment
 * indexes are partial on `deleted_at is null` (every read excludes deleted rows) and pair each
 * list filter with the `created` order, so a filtered page and its count walk one index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('assignments')
    .addColumn('id', 'integer', identity(db))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('content_id', 'integer', (c) => c.notNull().references('content_items.id'))
    .addColumn('enrollment_id', 'integer')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('not_started'))
    .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('progress_before_completion', 'real')
    .addColumn('score', 'real')
    .addColumn('is_success', 'integer')
    .addColumn('due_date', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('started_at', 'text')
    .addColumn('completed_datetime', 'text')
    .addColumn('dropped_at', 'text')
    .addColumn('exempted_at', 'text')
    .addColumn('feedback_rating', 'integer')
    .addColumn('feedback_text', 'text')
    .addColumn('drop_reason', 'text')
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  const live = sql<boolean>`deleted_at is null`;
  // one live assignment per user+content pair: create-or-get relies on it
  await db.schema.createIndex('assignments_pair_idx').on('assignments').columns(['user_id', 'content_id']).unique().where(live).execute();
  const listIndexes: Array<[string, string[]]> = [
    ['created', ['created']],
    ['state_created', ['state', 'created']],
    ['content_created', ['content_id', 'created']],
    ['due_date', ['due_date']],
  ];
  for (const [name, columns] of listIndexes) {
    await db.schema.createIndex(`assignments_${name}_idx`).on('assignments').columns(columns).where(live).execute();
  }
  // the overdue filter and insight: only outstanding rows, so the index stays small; state first,
  // so `state in (…) and due_date < today` is one range per state (and wins over state_created)
  await db.schema
    .createIndex('assignments_overdue_idx')
    .on('assignments')
    .columns(['state', 'due_date'])
    .where(sql<boolean>`deleted_at is null and state in ('not_started', 'in_progress')`)
    .execute();

  await sql`create table assignment_stats (
    content_id integer not null references content_items(id),
    state text not null,
    rating integer not null,
    success integer not null,
    reviewed integer not null,
    n integer not null,
    primary key (content_id, state, rating, success, reviewed)
  )${withoutRowid(db)}`.execute(db);

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'integer', identity(db))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('succeeded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addColumn('error_message', 'text')
    .execute();
  await db.schema
    .createIndex('jobs_unfinished_idx')
    .on('jobs')
    .columns(['id'])
    .where(sql<boolean>`status in ('pending', 'processing')`)
    .execute();

  await sql`create table job_items (
    job_id integer not null references jobs(id),
    position integer not null,
    payload text not null,
    outcome text,
    error_code text,
    primary key (job_id, position)
  )${withoutRowid(db)}`.execute(db);
  await db.schema
    .createIndex('job_items_pending_idx')
    .on('job_items')
    .columns(['job_id', 'position'])
    .where(sql<boolean>`outcome is null`)
    .execute();
}
