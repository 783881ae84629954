import type { Kysely } from 'kysely';
import { identity } from './dialect.ts';

/**
 * One-time console sign-in links (`lectern console-url`): the SHA-256 of the code, never the code,
 * so a copy of the database signs no one in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sign_in_links')
    .addColumn('id', 'integer', identity(db))
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('sign_in_links_expires_idx').on('sign_in_links').column('expires_at').execute();
}
