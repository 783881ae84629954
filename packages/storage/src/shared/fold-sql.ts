import { sql, type Expression, type RawBuilder } from 'kysely';

/** The SQL name of core's foldCase, registered on every connection (sqlite/open-sqlite-storage.ts). */
export const FOLD_FUNCTION = 'lectern_fold';

/**
 * `text` folded as core's foldCase folds it: what `search` and `ilike` compare. Calling into
 * JavaScript costs about four times what SQLite's lower() does per row, and for ASCII text
 * (one byte per character: length = octet_length) lower() already gives foldCase's answer, so only
 * other text makes the call.
 */
export const foldedSql = (text: Expression<unknown>): RawBuilder<string> =>
  sql<string>`(CASE WHEN length(${text}) = octet_length(${text}) THEN lower(${text}) ELSE ${sql.raw(FOLD_FUNCTION)}(${text}) END)`;
