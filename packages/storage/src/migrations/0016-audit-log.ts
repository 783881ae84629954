import type { Kysely } from 'kysely';
import { identity } from './dialect.ts';

/**
 * The audit log: one row per change, written in the change's transaction. The actor and token are
 * internal ids (resolved to public ids when read); the resource is named by its public id, which
 * stays meaningful after the resource is deleted. No foreign keys: an entry outlives what it names,
 * and writing one costs no lookups.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'integer', identity(db))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'integer')
    .addColumn('token_id', 'integer')
    .addColumn('request_id', 'text')
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text', (c) => c.notNull())
    // JSON text, {field: {from, to}}; null for anything but an update
    .addColumn('changes', 'text')
    .execute();
  // The list reads newest first (by id) with any one filter: each filter leads an index ending in
  // id, so a filtered page is a range read, not a scan. occurred_at also serves pruning.
  await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor_user_id', 'id']).execute();
  await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'id']).execute();
  await db.schema.createIndex('audit_log_resource_idx').on('audit_log').columns(['resource_type', 'resource_id', 'id']).execute();
  await db.schema.createIndex('audit_log_resource_id_idx').on('audit_log').columns(['resource_id', 'id']).execute();
  await db.schema.createIndex('audit_log_occurred_idx').on('audit_log').columns(['occurred_at', 'id']).execute();
}
