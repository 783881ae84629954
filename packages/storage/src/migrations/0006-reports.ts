import { sql, type Kysely } from 'kysely';
import { identity } from './dialect.ts';

/**
 * Saved reports, and the indexes that let a report filter on a user's email: `eq(user.email,…)`
 * compares the email as stored and `ilike(user.email,…)` without a wildcard compares lower(email)
 * (ASCII folding, which the email_lower column, folded in JavaScript, does not match for every
 * address). With them a report over assignments starts from the user instead of scanning.
 *
 * Both are unique, which email_lower's uniqueness already guarantees (two emails equal as stored,
 * or equal but for ASCII case, have the same email_lower) and which tells SQLite's planner, with
 * no statistics gathered, that such a condition finds one user, so it starts from that user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('saved_reports')
    .addColumn('id', 'integer', identity(db))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('expression', 'text', (c) => c.notNull())
    .addColumn('ordering', 'text')
    .addColumn('created_by', 'integer', (c) => c.references('users.id'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('saved_reports_created_idx')
    .on('saved_reports')
    .columns(['created'])
    .where(sql<boolean>`deleted_at is null`)
    .execute();

  await db.schema.createIndex('users_email_idx').on('users').column('email').unique().execute();
  await db.schema
    .createIndex('users_email_folded_idx')
    .on('users')
    .expression(sql`lower(email)`)
    .unique()
    .execute();
}
