import { sql, type Expression, type RawBuilder } from 'kysely';

/** The SQL name of core's foldCase, registered on every connection (sqlite/open-sqlite-storage.ts). */
export const FOLD_FUNCTION = 'lectern_fold';

/** `text` folded as core's foldCase folds it: what `search` and `ilike` compare. */
export const foldedSql = (text: Expression<unknown>): RawBuilder<string> => sql<string>`${sql.raw(FOLD_FUNCTION)}(${text})`;
