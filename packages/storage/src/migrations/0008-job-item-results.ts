import { sql, type Kysely } from 'kysely';

/**
 * What each bulk-job item did, kept beside its outcome so `GET …/bulk/<id>/items/` can answer
 * per row: the resource it created, updated or found (`public_id`, and `created` 1/0 telling a new
 * resource from an existing one) and the failure's message (the code was already stored).
 * Items processed before this migration have none of these and list them as null.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table job_items add column public_id text`.execute(db);
  await sql`alter table job_items add column created integer`.execute(db);
  await sql`alter table job_items add column error_message text`.execute(db);
}
