import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.ts';

/**
 * `lectern_fold(text)`: text folded to compare ignoring case, which SQLite gets from core's
 * foldCase registered on each connection. PostgreSQL's equivalent is NFC composition, then lower
 * case; with the database's C.UTF-8 or ICU collation it folds every script's letters, and differs
 * from foldCase only on a few special cases (such as the dotted capital I, İ), as docs/scaling.md
 * says. Nothing to do on SQLite.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create or replace function lectern_fold(value text) returns text
    language sql immutable parallel safe returns null on null input
    as $$ select lower(normalize(value, NFC)) $$`.execute(db);
}
