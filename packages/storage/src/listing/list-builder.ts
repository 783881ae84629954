/**
 * The one filter builder: turns a parsed ListQuery into WHERE / ORDER BY / LIMIT on a kysely
 * query, and counts in the same SQL, so no list endpoint loads rows it does not return.
 */
import {
  expressionBuilder,
  sql,
  type Expression,
  type Kysely,
  type OperandValueExpression,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import { LecternError, type FilterValue, type ListQuery } from '@lectern/core';
import { foldCase } from '@lectern/core/ports';
import { foldedSql } from '../shared/fold-sql.ts';
import { indexedBy } from '../shared/index-hint.ts';
import { rowsOf } from '../shared/offloaded-reads.ts';
import { fetchBatch } from './list-batches.ts';
import { keyOrder, listIndexes } from './list-order.ts';
import type { Column, ListDefinition, ListHints, SearchIndex, TotalQuery } from './list-definition.ts';
import type { Database } from '../schema.ts';

// the types a list is declared with (its filters, sort keys, search and hints): list-definition.ts

/** The shortest search term a trigram index can answer. */
const TRIGRAM = 3;

/** A filter's value as the list of values it accepts (a single value is a list of one). */
export const filterValues = (value: FilterValue): string[] => (Array.isArray(value) ? value : [String(value)]);

/** Whether the trigram index can answer a folded term: it needs three characters or more. */
const answersByTrigrams = (folded: string) => [...folded].length >= TRIGRAM;

/** The FTS5 phrase matching where the folded text contains `folded`; quoted, the term is never FTS5 syntax. */
const trigramPhrase = (folded: string) => `"${folded.replace(/"/g, '""')}"`;

/** A search term found in more than this share of a table's rows is checked row by row (see commonSearch). */
const COMMON_SHARE = 1 / 32;

/**
 * Whether `search` is common in a table of about `size` rows, so that reading every row with the
 * substring rule costs less than taking the trigram index's candidates. The index answers a rare
 * term at once (a dozen matches in 0.1 ms) but costs about 0.5 µs per match with the row each
 * leads to, while a scan of a narrow index holding the searched text costs about 5 µs per hundred
 * rows whatever the term: `deep dive`, in a quarter of 100 000 items, took 14 ms through the index
 * against 5 ms read row by row. Asking the index costs about 0.2 µs per match, so it is asked for
 * at most a thirty-second of the rows: the decision costs under 1 ms for 100 000 rows, and a term
 * below the line costs at most about as much through the index as a scan.
 */
export async function commonSearch<DB, TB extends keyof DB>(
  db: Kysely<Database>,
  index: SearchIndex<DB, TB>,
  search: string,
  size: number,
): Promise<boolean> {
  const folded = foldCase(search);
  if (!answersByTrigrams(folded)) return false;
  const enough = Math.max(1, Math.ceil(size * COMMON_SHARE));
  const table = sql.table(index.table);
  const { rows } = await sql<{
    n: number;
  }>`select count(*) as n from (select rowid from ${table} where ${table} match ${trigramPhrase(folded)} limit ${enough})`.execute(db);
  return Number(rows[0]?.n ?? 0) >= enough;
}

/** Escapes LIKE wildcards so user text matches literally (used with `escape '\'`). */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** `column` contains `needle`, ignoring case as core's foldCase does (SQLite's lower() folds only ASCII). */
export function containsIgnoringCase(column: string, needle: string): Expression<SqlBool> {
  return sql<SqlBool>`${foldedSql(sql.ref(column))} like ${`%${escapeLike(foldCase(needle))}%`} escape '\\'`;
}

/** The folded `column` contains the folded `needle`: text already folded needs no case rule. */
const containsFolded = (column: string, folded: string, substring: 'like' | 'instr' | undefined): Expression<SqlBool> =>
  substring === 'instr'
    ? sql<SqlBool>`instr(${sql.ref(column)}, ${folded}) > 0`
    : sql<SqlBool>`${sql.ref(column)} like ${`%${escapeLike(folded)}%`} escape '\\'`;

/** Sort key for names: people expect alphabetical order regardless of case. */
export const ignoringCase = (column: string) => () => sql`lower(${sql.ref(column)})`;

/**
 * A bound of a range as the value its column is compared with. kysely derives a value's type from
 * its column's, which it cannot do for a column of tables known only as type parameters; core's
 * ListSpec has already checked the bound against the field's type (a date, a time).
 */
const boundOf = <DB, TB extends keyof DB>(bound: string) => bound as OperandValueExpression<DB, TB, Column<DB, TB>>;

/** SQLite's FTS5 tables, by name: not among Database's tables, since PostgreSQL has none. */
const searchTables = expressionBuilder<Record<string, { rowid: number }>, never>();

export function applyFilters<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  list: ListQuery,
  def: ListDefinition<DB, TB>,
): SelectQueryBuilder<DB, TB, O> {
  let q = query;
  for (const [name, value] of Object.entries(list.filters)) {
    const filter = def.filters[name];
    if (filter) q = q.where((eb) => filter(eb, value));
  }
  for (const [field, bounds] of Object.entries(list.ranges)) {
    const column = def.ranges?.[field];
    if (!column) continue;
    if (bounds.gte !== undefined) q = q.where(column, '>=', boundOf<DB, TB>(bounds.gte));
    if (bounds.lte !== undefined) q = q.where(column, '<=', boundOf<DB, TB>(bounds.lte));
  }
  if (list.search && def.search && def.search.length > 0) {
    const needle = list.search;
    const index = def.searchIndex;
    const folded = foldCase(needle);
    if (index && answersByTrigrams(folded)) {
      const phrase = trigramPhrase(folded);
      q = q.where((eb) =>
        eb(
          // the FTS5 table's rowid is the key's number (the key's own type is not known here)
          eb.ref(index.key).$castTo<number>(),
          'in',
          searchTables
            .selectFrom(index.table)
            .select(sql<number>`rowid`.as('rowid'))
            .where(sql<SqlBool>`${sql.table(index.table)} match ${phrase}`),
        ),
      );
    }
    q = q.where((eb) =>
      eb.or(
        def.search!.map((column) =>
          typeof column === 'string' ? containsIgnoringCase(column, needle) : containsFolded(column.folded, folded, def.substring),
        ),
      ),
    );
  }
  return q;
}

/**
 * Counts the filtered rows and fetches one page of them. `select` adds the columns to the page
 * query only, so the count stays a bare COUNT(*) over the filtered set. `walked`, when given, is
 * the same rows without the search index's candidates (the substring rule alone decides the same
 * rows): a page read through a named index uses it, since building the candidates of a common
 * term costs more than the page.
 */
export async function fetchPage<DB, TB extends keyof DB, O, Row>(
  filtered: SelectQueryBuilder<DB, TB, O>,
  list: ListQuery,
  def: ListDefinition<DB, TB>,
  select: (query: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, Row>,
  hints: ListHints<DB, TB> = {},
  walked?: SelectQueryBuilder<DB, TB, O>,
): Promise<{ rows: Row[]; total: number }> {
  try {
    if (list.batch) return await fetchBatch(filtered, list, def, select, hints);
    return await fetchPageUnguarded(filtered, list, def, select, hints, walked);
  } catch (error) {
    throw isQueryTooLarge(error) ? queryTooLarge() : error;
  }
}

/**
 * What databases say when a statement exceeds one of their own limits: SQLite's expression depth,
 * number of bound parameters, parser stack, LIKE pattern length and string size (SQLITE_TOOBIG);
 * PostgreSQL's "stack depth limit exceeded" (54001) and "too many … arguments" (54023). Every cause
 * is the size of what the client asked for, so it is the client's 400, not the server's 500.
 */
const TOO_LARGE_MESSAGE = /too large|too many|too big|too complex|stack overflow|stack depth limit/i;
const TOO_LARGE_CODES = new Set(['SQLITE_TOOBIG', '54001', '54023']);

export function isQueryTooLarge(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof LecternError) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && TOO_LARGE_CODES.has(code)) return true;
  return code === 'SQLITE_ERROR' && TOO_LARGE_MESSAGE.test(error.message);
}

const queryTooLarge = () =>
  new LecternError('bad_request', 'The query is too large for the database to run; use fewer filter values or a shorter search.');

/**
 * The index SQLite reads a list through, if any (ListDefinition.indexes): a narrow filter's, else
 * the first sort key's when walking it in order to fill the page (`end` rows in, at `total` matches
 * among `all` rows, so about end × all / total rows) reads fewer rows than sorting every match.
 * A walked row that does not match costs a look at its columns; a sorted one is read whole, with
 * its joins, into the sorter: measured at a million assignments, about twenty times as much. That
 * is the margin for filters whose matches bunch up at one end of the order (mostly old rows, or
 * mostly new). Keys that can be null are never walked: their nulls come first, matching or not.
 */
export function pageIndex<DB, TB extends keyof DB>(
  list: ListQuery,
  def: ListDefinition<DB, TB>,
  hints: ListHints<DB, TB>,
  total?: number,
): string | undefined {
  const found = listIndexes(list, def, hints);
  if (!found) return undefined; // PostgreSQL, or a resource that needs no hint
  if (found.narrow !== undefined) return found.narrow;
  const { ordered } = found;
  if (!ordered || total === undefined || hints.all === undefined || total === 0) return undefined;
  const end = (list.offset ?? (list.page - 1) * list.pageSize) + list.pageSize;
  return (end * hints.all) / total < total ? ordered : undefined;
}

/**
 * The column a page's rows carry their list's total in when the total is read with the page: one
 * statement instead of two, so on PostgreSQL one round trip fewer (docs/scaling.md, "Lists and
 * reports at a million assignments"). Row builders read their columns by name, so it goes unseen.
 */
const TOTAL = '__list_total';

async function fetchPageUnguarded<DB, TB extends keyof DB, O, Row>(
  filtered: SelectQueryBuilder<DB, TB, O>,
  list: ListQuery,
  def: ListDefinition<DB, TB>,
  select: (query: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, Row>,
  hints: ListHints<DB, TB>,
  walked: SelectQueryBuilder<DB, TB, O> | undefined,
): Promise<{ rows: Row[]; total: number }> {
  const totalQuery: TotalQuery =
    hints.total ??
    indexedBy(filtered, pageIndex(list, def, hints))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .$castTo<{ total: number }>();
  const readTotal = async () => Number((await rowsOf(totalQuery, hints.offload))[0]?.total ?? 0);
  const offset = list.offset ?? (list.page - 1) * list.pageSize;
  // a list that names its indexes may choose the page's by its total (pageIndex): it counts first;
  // any other page carries its total, and an empty page past the first counts on its own
  const total = def.indexes === undefined ? undefined : await readTotal();
  if (total !== undefined && offset >= total) return { rows: [], total };

  const index = pageIndex(list, def, hints, total);
  let page = select(indexedBy(index !== undefined && walked ? walked : filtered, index));
  for (const term of list.ordering) {
    const target = def.ordering[term.field];
    if (!target) continue;
    const direction = keyOrder(term.descending, def.nullable?.has(term.field) === true);
    page = typeof target === 'string' ? page.orderBy(target, direction) : page.orderBy((eb) => target(eb), direction);
  }
  const tiebreakDirection = list.ordering[0]?.descending ? 'desc' : 'asc';
  page = page.orderBy(def.tiebreak, tiebreakDirection);
  // a kept plan knows its page's size from its text (ListHints.keptPlan); with an offset (a page
  // past the first) it cannot know how many rows the page skips, so it keeps planning each run
  page = hints.keptPlan ? page.limit(sql.lit(list.pageSize)) : page.limit(list.pageSize);
  if (offset > 0 || !hints.keptPlan) page = page.offset(offset);
  if (total !== undefined) return { rows: await rowsOf(page, hints.offload), total };

  const rows = await rowsOf(page.select(sql<number>`(${totalQuery})`.as(TOTAL)), hints.offload);
  const first = rows[0] as Record<string, unknown> | undefined;
  return { rows, total: first !== undefined ? Number(first[TOTAL]) : offset === 0 ? 0 : await readTotal() };
}

export const toBool = (value: number | boolean | null): boolean => value === 1 || value === true;
export const fromBool = (value: boolean): number => (value ? 1 : 0);
