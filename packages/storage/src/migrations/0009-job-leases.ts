import type { Kysely } from 'kysely';

/**
 * Which Lectern process is running a bulk job, and until when: several processes may share one
 * database, and a job must run in one of them at a time. A process that stops renewing its lease
 * (it crashed, or was killed) leaves the job to whichever process claims it next.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('lease_owner', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('lease_expires_at', 'text').execute();
}
