import type { Kysely } from 'kysely';

/**
 * An uploaded row longer than the record limit is stored without its cells, marked, so that it
 * fails as too long when its turn comes while the rows after it are imported.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('import_rows').addColumn('too_long', 'integer').execute();
}
