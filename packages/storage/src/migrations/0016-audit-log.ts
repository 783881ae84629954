import type { CreateTableBuilder, Kysely } from 'kysely';
import { identity } from './dialect.ts';

/**
 * The audit log: one row per change, written in the change's transaction. The actor and token are
 * internal ids (resolved to public ids when read); the resource is named by its public id, which
 * stays meaningful after the resource is deleted. No foreign keys: an entry outlives what it names.
 *
 * A change writes its entry to audit_log_recent, which has no index but its key: each index of the
 * log is one more page a transaction writes (about 9 us each on SQLite), which made the entry cost
 * a PATCH about half again. The maintenance pass moves the recent rows into audit_log, whose
 * indexes serve the list's filters, many rows per transaction. The recent table's ids continue one
 * sequence that is never reused (AUTOINCREMENT, an identity), so every recent row is newer than
 * every moved one and the list reads the recent rows first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const columns = (table: CreateTableBuilder<string, never>) =>
    table
      .addColumn('public_id', 'text', (c) => c.notNull())
      .addColumn('occurred_at', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('actor_user_id', 'integer')
      .addColumn('token_id', 'integer')
      .addColumn('request_id', 'text')
      .addColumn('resource_type', 'text', (c) => c.notNull())
      .addColumn('resource_id', 'text', (c) => c.notNull())
      // JSON text, {field: {from, to}}; null for anything but an update
      .addColumn('changes', 'text');
  await columns(db.schema.createTable('audit_log_recent').addColumn('id', 'integer', identity(db))).execute();
  // ids come from audit_log_recent
  await columns(db.schema.createTable('audit_log').addColumn('id', 'integer', (c) => c.primaryKey())).execute();
  await db.schema.createIndex('audit_log_public_id_idx').unique().on('audit_log').column('public_id').execute();
  // The list reads newest first (by id) with any one filter: each filter leads an index ending in
  // id, so a filtered page is a range read, not a scan. occurred_at also serves pruning.
  await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor_user_id', 'id']).execute();
  await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'id']).execute();
  await db.schema.createIndex('audit_log_resource_idx').on('audit_log').columns(['resource_type', 'resource_id', 'id']).execute();
  await db.schema.createIndex('audit_log_resource_id_idx').on('audit_log').columns(['resource_id', 'id']).execute();
  await db.schema.createIndex('audit_log_occurred_idx').on('audit_log').columns(['occurred_at', 'id']).execute();
}
