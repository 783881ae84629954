import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/** The tables whose rows other requests name by public id. */
type NamedByPublicId = 'users' | 'groups' | 'content_items';

/**
 * The internal ids of the rows with these public ids, keyed by public id: the one way a write
 * resolves the ids a request names. A public id with no row is absent from the map; so is one of a
 * soft-deleted row, on the tables that soft-delete (users are deactivated, never deleted).
 */
export async function idsByPublicId(
  db: Kysely<Database>,
  table: NamedByPublicId,
  publicIds: readonly string[],
): Promise<Map<string, number>> {
  if (publicIds.length === 0) return new Map();
  const rows = await db
    .selectFrom(table as 'groups')
    .select(['id', 'public_id'])
    .where('public_id', 'in', [...publicIds])
    .$if(table !== 'users', (query) => query.where(sql.ref('deleted_at'), 'is', null))
    .execute();
  return new Map(rows.map((row) => [row.public_id, row.id]));
}
