import type { Kysely } from 'kysely';
import { identity } from './dialect.ts';

/**
 * Console single sign-on requests waiting for the provider's answer: kept in the database so the
 * provider may send the browser back to any instance. The state is stored as its SHA-256; the nonce
 * and PKCE verifier must be read back as they were, and are worthless without the state.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_requests')
    .addColumn('id', 'integer', identity(db))
    .addColumn('state_hash', 'text', (c) => c.notNull().unique())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oidc_requests_expires_idx').on('oidc_requests').column('expires_at').execute();
}
