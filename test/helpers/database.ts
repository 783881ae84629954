/**
 * Reads and writes a test server's database directly, whichever it is: a SQLite file or, in the
 * PostgreSQL runs, the URL that stands where the file would. Statements use `?` placeholders.
 */
import Database from 'better-sqlite3';
import { writeLockQuery } from '../../packages/storage/src/write-lock-key.ts';
import { poolFor } from './postgres.ts';

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
