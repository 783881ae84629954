import { sql, type Kysely } from 'kysely';

/**
 * SCIM provisioning (docs/identity.md): the identity provider's own id for a user or group, kept as
 * sent, and the moment a provider deleted a user. Lectern keeps such a user, inactive, for the API
 * and its history; the SCIM routes no longer see it. Identity providers look users up by
 * `externalId`, hence the indexes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column external_id text`.execute(db);
  await sql`alter table users add column scim_deleted_at text`.execute(db);
  await sql`alter table groups add column external_id text`.execute(db);
  await sql`create index users_external_id_idx on users (external_id)`.execute(db);
  await sql`create index groups_external_id_idx on groups (external_id)`.execute(db);
}
