import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.ts';

/**
 * Webhook recovery and the list of bulk jobs (docs/webhooks.md, docs/assignments.md):
 * - each attempt keeps the headers it sent (the body is the outbox event's, kept already);
 * - a delivery can be owed one extra attempt, asked for by a person, whose failure schedules
 *   nothing more;
 * - a job names its submitter as a column, so "organizers see their own jobs" is an indexed
 *   condition and the list can join the user, instead of reading every job's stored actor.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_attempts').addColumn('request_headers', 'text').execute();
  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('final_attempt', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema.alterTable('jobs').addColumn('created_by_id', 'integer').execute();
  // the stored actor is JSON written by core (jobs/job.ts); a system actor has no userId and stays null
  if (isPostgres(db)) await sql`update jobs set created_by_id = (actor::jsonb ->> 'userId')::integer`.execute(db);
  else await sql`update jobs set created_by_id = json_extract(actor, '$.userId')`.execute(db);
  await db.schema.createIndex('jobs_created_idx').on('jobs').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('jobs_creator_created_idx').on('jobs').columns(['created_by_id', 'created_at', 'id']).execute();
}
