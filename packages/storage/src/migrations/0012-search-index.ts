import { sql, type Kysely } from 'kysely';
import { foldCase } from '@lectern/core/ports';
import { isPostgres } from './dialect.ts';

/**
 * `search` on users and content items through an index instead of a scan (docs/api.md, "Lists").
 * The searched text is kept folded in columns the repositories write with each row (`email_lower`
 * already, `name_folded` from here on), so the index holds exactly the text the substring rule
 * compares. SQLite indexes it in an FTS5 trigram table per resource, kept by triggers in the same
 * transaction as the row; PostgreSQL in GIN trigram indexes (pg_trgm) on the folded columns.
 */
const SEARCHED = [
  { table: 'users', index: 'users_search', columns: ['email_lower', 'name_folded'] },
  { table: 'content_items', index: 'content_items_search', columns: ['name_folded'] },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { table } of SEARCHED) {
    await db.schema.alterTable(table).addColumn('name_folded', 'text').execute();
    if (isPostgres(db)) {
      // PostgreSQL's lectern_fold differs from foldCase on a few letters: fold in JavaScript, row by row
      const rows = await sql<{ id: number; name: string }>`select id, name from ${sql.table(table)}`.execute(db);
      for (const row of rows.rows)
        await sql`update ${sql.table(table)} set name_folded = ${foldCase(row.name)} where id = ${row.id}`.execute(db);
    } else {
      // on SQLite lectern_fold is foldCase itself: one statement, all or nothing
      await sql`update ${sql.table(table)} set name_folded = lectern_fold(name)`.execute(db);
    }
  }
  if (isPostgres(db)) await indexOnPostgres(db);
  else await indexOnSqlite(db);
}

async function indexOnPostgres(db: Kysely<unknown>): Promise<void> {
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
  } catch (error) {
    throw new Error(
      `search needs PostgreSQL's pg_trgm extension, which this database user may not create: ask an administrator to run "create extension pg_trgm" in this database (${(error as Error).message})`,
    );
  }
  for (const { table, columns } of SEARCHED) {
    for (const column of columns) {
      await sql`create index ${sql.id(`${table}_${column}_trgm_idx`)} on ${sql.table(table)} using gin (${sql.ref(column)} gin_trgm_ops)`.execute(
        db,
      );
    }
  }
}

async function indexOnSqlite(db: Kysely<unknown>): Promise<void> {
  for (const { table, index, columns } of SEARCHED) {
    // names are this file's constants; trigger bodies take no parameters
    const list = sql.raw(columns.join(', '));
    const values = (row: 'new' | 'old') => sql.raw(columns.map((column) => `${row}.${column}`).join(', '));
    // contentless: the text is in the table's own columns; the index keeps only the trigrams
    await sql`create virtual table ${sql.table(index)} using fts5(${list}, content='', contentless_delete=1, tokenize='trigram case_sensitive 1')`.execute(
      db,
    );
    await sql`insert into ${sql.table(index)} (rowid, ${list}) select id, ${list} from ${sql.table(table)}`.execute(db);
    await sql`create trigger ${sql.id(`${index}_insert`)} after insert on ${sql.table(table)} begin
      insert into ${sql.table(index)} (rowid, ${list}) values (new.id, ${values('new')});
    end`.execute(db);
    await sql`create trigger ${sql.id(`${index}_update`)} after update of ${list} on ${sql.table(table)} begin
      delete from ${sql.table(index)} where rowid = old.id;
      insert into ${sql.table(index)} (rowid, ${list}) values (new.id, ${values('new')});
    end`.execute(db);
    await sql`create trigger ${sql.id(`${index}_delete`)} after delete on ${sql.table(table)} begin
      delete from ${sql.table(index)} where rowid = old.id;
    end`.execute(db);
  }
}
