/**
 * Reads and writes a test server's database directly, whichever it is: a SQLite file or, in the
 * PostgreSQL runs, the URL that stands where the file would. Statements use `?` placeholders.
 */
import Database from 'better-sqlite3';
import type { Pool } from 'pg';
import { writeLockQuery } from '../../packages/storage/src/write-lock-key.ts';

const isUrl = (target: string) => /^postgres(ql)?:\/\//.test(target);

/** Runs one statement on the database and answers its rows (none for a write). */
export async function queryDatabase<Row = any>(target: string, statement: string, parameters: unknown[] = []): Promise<Row[]> {
  if (!isUrl(target)) {
    const db = new Database(target, { fileMustExist: true });
    try {
      const prepared = db.prepare(statement);
      if (prepared.reader) return prepared.all(...parameters) as Row[];
      prepared.run(...parameters);
      return [];
    } finally {
      db.close();
    }
  }
  const pool = await poolFor(target);
  let index = 0;
  const numbered = statement.replace(/\?/g, () => `$${++index}`);
  return (await pool.query(numbered, parameters)).rows as Row[];
}

/**
 * A few connections per PostgreSQL database, kept between statements: tests poll (an import's
 * progress, the write lock) and a connection of its own per look cost a server process's start,
 * tens of milliseconds on a busy or slow machine, so a poll saw a chunk's first batch long after it
 * had ended. Idle connections close after a second and never keep the test process alive.
 */
const pools = new Map<string, Promise<Pool>>();
function poolFor(url: string): Promise<Pool> {
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

/**
 * Whether a transaction holds the database's write lock at this moment: on SQLite, a write
 * transaction of its own cannot begin without waiting (begun, it is rolled back at once); on
 * PostgreSQL, the advisory lock every write transaction takes is granted to someone.
 */
export async function writeLockHeld(target: string): Promise<boolean> {
  if (!isUrl(target)) {
    const db = new Database(target, { fileMustExist: true, timeout: 0 });
    try {
      db.exec('begin immediate');
      db.exec('rollback');
      return false;
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
      throw error;
    } finally {
      db.close();
    }
  }
  const [row] = await queryDatabase<{ held: boolean }>(target, writeLockQuery('granted', 'held'));
  return row?.held === true;
}
