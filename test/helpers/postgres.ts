/**
 * Fresh PostgreSQL databases for tests, on the server scripts/run-tests.mjs started (or the one
 * LECTERN_TEST_POSTGRES_URL names): each call creates an empty database and answers its URL.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const postgresServerUrl = process.env.LECTERN_TEST_POSTGRES_URL;

export async function freshPostgresDatabase(): Promise<string> {
  if (!postgresServerUrl) throw new Error('LECTERN_TEST_POSTGRES_URL is not set: run the tests with scripts/run-tests.mjs');
  const name = `lectern_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresServerUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresServerUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
