/**
 * Reads and writes a test server's database directly, whichever it is: a SQLite file or, in the
 * PostgreSQL runs, the URL that stands where the file would. Statements use `?` placeholders.
 */
import Database from 'better-sqlite3';
import pg from 'pg';

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
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    let index = 0;
    const numbered = statement.replace(/\?/g, () => `$${++index}`);
    return (await client.query(numbered, parameters)).rows as Row[];
  } finally {
    await client.end();
  }
}
