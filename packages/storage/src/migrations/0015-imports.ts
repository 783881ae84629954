import { sql, type Kysely } from 'kysely';
import { identity, withoutRowid } from './dialect.ts';

/**
 * Server-side CSV imports. An upload is stored row by row as it streams in (`import_rows`, the
 * cells as JSON), before its job exists; the job then processes the rows in order, recording each
 * row's outcome in `import_results` and moving `done_through` in the same transaction, so after a
 * crash it resumes at the first row without an outcome. Outcomes are rows of their own, written
 * many to one statement, rather than updates of the uploaded rows one at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('imports')
    .addColumn('id', 'integer', identity(db))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    // `receiving` while the file streams in (never listed), then the API's statuses
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('dry_run', 'integer', (c) => c.notNull())
    .addColumn('update_existing', 'integer', (c) => c.notNull())
    .addColumn('filename', 'text')
    .addColumn('header', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('created_by_id', 'integer')
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('job_id', 'integer')
    .addColumn('total_rows', 'integer')
    .addColumn('done_through', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('existing', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('valid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema.createIndex('imports_job_idx').on('imports').column('job_id').execute();
  await db.schema.createIndex('imports_created_idx').on('imports').columns(['created_at', 'id']).execute();

  await sql`create table import_rows (
    import_id integer not null,
    row integer not null,
    cells text not null,
    bad_fields text,
    primary key (import_id, row)
  )${withoutRowid(db)}`.execute(db);

  await sql`create table import_results (
    import_id integer not null,
    row integer not null,
    status text not null,
    public_id text,
    error_code text,
    error_message text,
    identity text,
    primary key (import_id, row)
  )${withoutRowid(db)}`.execute(db);
  await db.schema
    .createIndex('import_results_identity_idx')
    .on('import_results')
    .columns(['import_id', 'identity'])
    .where(sql<boolean>`identity is not null`)
    .execute();
}
