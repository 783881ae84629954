import type { Kysely } from 'kysely';

/**
 * Which Lectern process holds a bulk job or a webhook delivery, and until when. Several processes
 * may share one database; a job runs in one of them at a time and a delivery is attempted by one.
 * What a process that died held is taken by the others once its lease runs out, or at once by the
 * same process (the same instance id) when it starts again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('lease_owner', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('lease_expires_at', 'text').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('lease_owner', 'text').execute();
}
