/**
 * Fresh PostgreSQL databases for tests, on the server scripts/run-tests.mjs started (or the one
 * LECTERN_TEST_POSTGRES_URL names): each call creates an empty database and answers its URL.
 */
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';

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
  await (await poolFor(postgresServerUrl)).query(`create database ${name}${template}`);
  const url = new URL(postgresServerUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A few connections per PostgreSQL database, kept between statements: tests poll (an import's
 * progress, the write lock) and a connection of its own per look cost a server process's start,
 * tens of milliseconds on a busy or slow machine, so a poll saw a chunk's first batch long after it
 * had ended. Idle connections close after a second and never keep the test process alive.
 */
const pools = new Map<string, Promise<Pool>>();
export function poolFor(url: string): Promise<Pool> {
  let pool = pools.get(url);
  if (!pool) {
    // loaded only here: a SQLite run's files never need the driver (30 ms of CPU each to load)
    pool = import('pg').then(({ default: pg }) => {
      const made = new pg.Pool({ connectionString: url, max: 2, idleTimeoutMillis: 1000, allowExitOnIdle: true });
      // an idle connection the server ended (a stopped cluster, say) is dropped, not thrown
      made.on('error', () => undefined);
      return made;
    });
    pools.set(url, pool);
  }
  return pool;
}
