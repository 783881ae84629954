import { sql, type Kysely } from 'kysely';
import { identity } from './dialect.ts';

/** Users, groups and their memberships, API tokens, and the webhook outbox. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', identity(db))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_lower', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('employee_id', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('manager_id', 'integer', (c) => c.references('users.id'))
    .addColumn('date_joined', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('users_name_lower_idx')
    .on('users')
    .expression(sql`lower(name)`)
    .execute();
  for (const column of ['employee_id', 'manager_id', 'date_joined']) {
    await db.schema.createIndex(`users_${column}_idx`).on('users').column(column).execute();
  }
  // the common filters, each followed by the default order, so a page needs no sort of all matches
  await db.schema.createIndex('users_role_joined_idx').on('users').columns(['role', 'date_joined']).execute();
  await db.schema.createIndex('users_active_joined_idx').on('users').columns(['is_active', 'date_joined']).execute();
  await db.schema.createIndex('users_role_active_joined_idx').on('users').columns(['role', 'is_active', 'date_joined']).execute();

  await db.schema
    .createTable('groups')
    .addColumn('id', 'integer', identity(db))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('source', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('groups_created_idx').on('groups').columns(['deleted_at', 'created']).execute();
  await db.schema
    .createIndex('groups_name_lower_idx')
    .on('groups')
    .expression(sql`lower(name)`)
    .execute();

  await db.schema
    .createTable('group_users')
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('relation', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_users_pk', ['group_id', 'relation', 'user_id'])
    .execute();
  // "which groups is this user in" drives user filters and content visibility
  await db.schema.createIndex('group_users_user_idx').on('group_users').columns(['user_id', 'relation', 'group_id']).execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'integer', identity(db))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_prefix', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_tokens_user_idx').on('api_tokens').columns(['user_id', 'created']).execute();

  await db.schema
    .createTable('outbox_events')
    .addColumn('sequence', 'integer', identity(db))
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .execute();
}
