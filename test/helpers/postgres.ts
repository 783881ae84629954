/**
 * Fresh PostgreSQL databases for tests, on the server scripts/run-tests.mjs started (or the one
 * LECTERN_TEST_POSTGRES_URL names): each call creates an empty database and answers its URL.
 */
import { randomBytes } from 'node:crypto';

export const postgresServerUrl = process.env.LECTERN_TEST_POSTGRES_URL;

/** The database scripts/run-tests.mjs migrated once for the run (scripts/run-fixtures.mjs), if it made one. */
const migratedTemplate = process.env.LECTERN_TEST_POSTGRES_TEMPLATE;

/**
 * `migrated`: a copy of the run's migrated template, where there is one (else empty, and the server
 * migrates it), for tests that need a database but do not test migrating one.
 */
export async function freshPostgresDatabase({ migrated = false } = {}): Promise<string> {
  if (!postgresServerUrl) throw new Error('LECTERN_TEST_POSTGRES_URL is not set: run the tests with scripts/run-tests.mjs');
  const name = `lectern_test_${randomBytes(6).toString('hex')}`;
  const template = migrated && migratedTemplate && /^[a-z0-9_]+$/.test(migratedTemplate) ? ` template ${migratedTemplate}` : '';
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: postgresServerUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template}`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresServerUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
