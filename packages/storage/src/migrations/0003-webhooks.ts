import { sql, type Kysely } from 'kysely';
import { identity } from './dialect.ts';

/** Webhook subscriptions, the deliveries owed to them, every attempt, and the dispatcher's cursor. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'integer', identity(db))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('first_failure_at', 'text')
    // the outbox position when the subscription was made: it receives the events after it
    .addColumn('starts_after_sequence', 'integer', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('webhook_endpoints_created_idx').on('webhook_endpoints').columns(['deleted_at', 'created']).execute();

  // The subscribed types as rows, so fan-out is one indexed join rather than JSON parsing per event.
  await db.schema
    .createTable('webhook_endpoint_events')
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id'))
    .addPrimaryKeyConstraint('webhook_endpoint_events_pk', ['event_type', 'endpoint_id'])
    .execute();
  await db.schema.createIndex('webhook_endpoint_events_endpoint_idx').on('webhook_endpoint_events').column('endpoint_id').execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'integer', identity(db))
    .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .addUniqueConstraint('webhook_deliveries_endpoint_event_uq', ['endpoint_id', 'event_id'])
    .execute();
  // The worker claims per endpoint, oldest due first; finished deliveries stay out of the index,
  // so its size is the backlog, not the history.
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'next_attempt_at', 'id'])
    .where(sql.ref('state'), '=', 'pending')
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'integer', identity(db))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('webhook_deliveries.id'))
    .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .execute();
  // a foreign key's child side: without it SQLite scans attempts when a delivery row is written
  await db.schema.createIndex('webhook_attempts_delivery_idx').on('webhook_attempts').column('delivery_id').execute();
  // the deliveries route: one endpoint's attempts, newest first, optionally for one event
  await db.schema.createIndex('webhook_attempts_endpoint_idx').on('webhook_attempts').columns(['endpoint_id', 'id']).execute();
  await db.schema.createIndex('webhook_attempts_event_idx').on('webhook_attempts').columns(['endpoint_id', 'event_id', 'id']).execute();

  await db.schema
    .createTable('webhook_dispatch_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('outbox_sequence', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into webhook_dispatch_state (id, outbox_sequence) values (1, 0)`.execute(db);
}
