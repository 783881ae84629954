import type { Kysely } from 'kysely';

/**
 * Requests counted per rate-limit key and fixed window, for servers that share a database
 * (docs/scaling.md). `window_start` is epoch milliseconds, beyond 32 bits.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit_windows')
    .addColumn('key', 'text', (column) => column.notNull())
    .addColumn('window_start', 'bigint', (column) => column.notNull())
    .addColumn('hits', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('rate_limit_windows_pk', ['key', 'window_start'])
    .execute();
}
