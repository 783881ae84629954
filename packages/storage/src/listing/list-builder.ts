/**
 * The one filter builder: turns a parsed ListQuery into WHERE / ORDER BY / LIMIT on a kysely
 * query, and counts in the same SQL, so no list endpoint loads rows it does not return.
 */
import {
  expressionBuilder,
  sql,
  type Expression,
  type ExpressionBuilder,
  type Compilable,
  type Kysely,
  type OperandValueExpression,
  type OrderByItemBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  type StringReference,
} from 'kysely';
import { LecternError, type FilterValue, type HeldListRead, type ListBatch, type ListQuery } from '@lectern/core';
import { foldCase } from '@lectern/core/ports';
import { foldedSql } from '../shared/fold-sql.ts';
import { indexedBy } from '../shared/index-hint.ts';
import { piecesOf, rowsOf, type OffloadedRead } from '../shared/offloaded-reads.ts';
import type { OpenHeldRead } from '../shared/held-reads.ts';
import { readAhead, READ_AHEAD_BATCHES } from './read-ahead.ts';

import type { Database } from '../schema.ts';

/*
 * Every type here is parameterised, as kysely's own, on the tables a list's query reads (`DB`,
 * storage's Database with the aliases the query gives its tables) and the aliases in scope (`TB`):
 * a filter, bound, sort key or searched column naming a column the list does not read, or
 * comparing it with a value of another type, is a compile error in the repository declaring it.
 */

/**
 * A column of the list's tables, as kysely names it (`u.email`). Also a string: the helpers that
 * write SQL around a column by hand (a search's folding) take its name.
 */
export type Column<DB, TB extends keyof DB> = StringReference<DB, TB> & string;

/** A condition on the tables of a list's query. */
export type Condition<DB, TB extends keyof DB> = (eb: ExpressionBuilder<DB, TB>) => Expression<SqlBool>;

export type FilterSql<DB, TB extends keyof DB> = (eb: ExpressionBuilder<DB, TB>, value: FilterValue) => Expression<SqlBool>;

/** A sort key: a column, or an expression over the list's tables. */
export type SortKey<DB, TB extends keyof DB> = Column<DB, TB> | ((eb: ExpressionBuilder<DB, TB>) => Expression<unknown>);

export interface ListDefinition<DB, TB extends keyof DB> {
  /** one entry per filter of the area's ListSpec */
  filters: Record<string, FilterSql<DB, TB>>;
  /** `<field>__gte/__lte` → the column compared */
  ranges?: Record<string, Column<DB, TB>>;
  /** columns `search` looks in, case-insensitively */
  search?: readonly SearchColumn<DB, TB>[];
  /**
   * The full-text index of the searched columns (SQLite FTS5, trigram): `search` of three or more
   * characters takes its candidates from it before the substring rule checks them, instead of
   * reading every row. Left out on PostgreSQL, whose trigram indexes serve the rule itself.
   */
  searchIndex?: SearchIndex<DB, TB>;
  /**
   * How a folded column is searched: with LIKE, which PostgreSQL's trigram indexes serve, or with
   * SQLite's instr(), a plain substring search that costs less per row than matching a pattern.
   */
  substring?: 'like' | 'instr';
  /** sortable field → column or expression */
  ordering: Record<string, SortKey<DB, TB>>;
  /**
   * sort keys whose value may be null: ordered with nulls first going up and last going down on
   * both databases (SQLite's default, PostgreSQL's reverse). Other keys are left to each database's
   * own order, which its indexes on them serve.
   */
  nullable?: ReadonlySet<string>;
  /** a unique column that makes every order total, so pages never overlap */
  tiebreak: Column<DB, TB>;
  /**
   * SQLite's indexes that a page is read through when its planner, which has no statistics, would
   * guess worse (shared/index-hint.ts); left out on PostgreSQL. `narrow`: a filter that keeps few
   * rows, and the index that finds them, used for the count and the page whatever else is asked;
   * `ordered`: a sort key and the index that reads rows in its order, used when walking it to fill
   * the page reads fewer rows than the query matches (known only from `ListHints.all`).
   */
  indexes?: { narrow?: Readonly<Record<string, string>>; ordered?: Readonly<Record<string, string>> };
}

/** What a repository knows of a list beyond its SQL, for counting and planning it. */
export interface ListHints<DB, TB extends keyof DB> {
  /** the exact number of matches, from counts kept per write: no COUNT is run */
  total?: number;
  /** the number of rows in the whole table, from counts kept per write, or an estimate (its largest id) */
  all?: number;
  /** an index that finds few rows for a condition the repository added itself (a learner's own rows) */
  narrow?: string;
  /**
   * A condition the repository added itself that costs more per row than the list's filters (a
   * learner's access groups): it is checked after them, as SQLite evaluates conditions in order.
   */
  checkedLast?: Condition<DB, TB>;
  /** where the count and the page are read when not on the query's own connection (a search on SQLite) */
  offload?: OffloadedRead;
  /** an export's batches: how the rest of the list is held open after its first (a cursor on PostgreSQL) */
  hold?: OpenHeldRead;
}

/** A searched column: its name, or, as `{ folded }`, a column that already holds foldCase of the text. */
export type SearchColumn<DB, TB extends keyof DB> = Column<DB, TB> | { folded: Column<DB, TB> };

export interface SearchIndex<DB, TB extends keyof DB> {
  /** the FTS5 table, whose rowid is the resource's id */
  table: string;
  /** the resource's id column, as `u.id` */
  key: Column<DB, TB>;
}

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
  const { indexes } = def;
  if (!indexes) return undefined; // PostgreSQL, or a resource that needs no hint
  const narrow = hints.narrow ?? Object.keys(list.filters).find((name) => indexes.narrow?.[name] !== undefined);
  if (narrow !== undefined) return hints.narrow ?? indexes.narrow![narrow];
  const first = list.ordering[0];
  const ordered = first && !def.nullable?.has(first.field) ? indexes.ordered?.[first.field] : undefined;
  if (!ordered || total === undefined || hints.all === undefined || total === 0) return undefined;
  const end = (list.offset ?? (list.page - 1) * list.pageSize) + list.pageSize;
  return (end * hints.all) / total < total ? ordered : undefined;
}

async function fetchPageUnguarded<DB, TB extends keyof DB, O, Row>(
  filtered: SelectQueryBuilder<DB, TB, O>,
  list: ListQuery,
  def: ListDefinition<DB, TB>,
  select: (query: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, Row>,
  hints: ListHints<DB, TB>,
  walked: SelectQueryBuilder<DB, TB, O> | undefined,
): Promise<{ rows: Row[]; total: number }> {
  let total = hints.total;
  if (total === undefined) {
    const counted = indexedBy(filtered, pageIndex(list, def, hints));
    const [countRow] = await rowsOf(
      counted.select((eb) => eb.fn.countAll<number>().as('total')).$castTo<{ total: number }>(),
      hints.offload,
    );
    total = Number(countRow?.total ?? 0);
  }
  const offset = list.offset ?? (list.page - 1) * list.pageSize;
  if (offset >= total) return { rows: [], total };

  const index = pageIndex(list, def, hints, total);
  let page = select(indexedBy(index !== undefined && walked ? walked : filtered, index));
  for (const term of list.ordering) {
    const target = def.ordering[term.field];
    if (!target) continue;
    const nullable = def.nullable?.has(term.field);
    const direction = (order: OrderByItemBuilder) => {
      const ordered = term.descending ? order.desc() : order.asc();
      if (!nullable) return ordered;
      return term.descending ? ordered.nullsLast() : ordered.nullsFirst();
    };
    page = typeof target === 'string' ? page.orderBy(target, direction) : page.orderBy((eb) => target(eb), direction);
  }
  const tiebreakDirection = list.ordering[0]?.descending ? 'desc' : 'asc';
  page = page.orderBy(def.tiebreak, tiebreakDirection).limit(list.pageSize).offset(offset);
  return { rows: await rowsOf(page, hints.offload), total };
}

/** A sort key of a batched read: what it orders by, which way, and where its nulls go. */
interface BatchKey {
  expression: Expression<unknown>;
  descending: boolean;
  /** whether null values come before the others in the list's order (declared nullable keys only) */
  nullsFirst: boolean | undefined;
}

/** `KEY_PREFIX<n>`: the selected value of sort key n, read back to continue after the batch's last row. */
const KEY_PREFIX = '__batch_key_';

/** The rows after `values` in the order of `keys` (the last key is unique), as one condition. */
function after<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  keys: readonly BatchKey[],
  values: readonly unknown[],
  from = 0,
): Expression<SqlBool> {
  const key = keys[from]!;
  const value = values[from];
  const last = from === keys.length - 1;
  if (value === null && key.nullsFirst === undefined) {
    // a key the list does not declare nullable has no agreed place for nulls: stop, rather than skip rows
    throw new Error(`a batched list read met a null in a sort key that is not declared nullable (key ${from})`);
  }
  const isNull = eb(key.expression, 'is', null);
  const beyond: Expression<SqlBool> =
    value === null
      ? key.nullsFirst
        ? eb(key.expression, 'is not', null)
        : eb.lit(false)
      : key.nullsFirst === false
        ? eb.or([eb(key.expression, key.descending ? '<' : '>', value), isNull])
        : eb(key.expression, key.descending ? '<' : '>', value);
  if (last) return beyond;
  const same = value === null ? isNull : eb(key.expression, '=', value);
  const rest = eb.or([beyond, eb.and([same, after(eb, keys, values, from + 1)])]);
  // a bound on the first key alone lets an index on it start where the previous batch ended
  if (from === 0 && value !== null && key.nullsFirst !== false)
    return eb.and([eb(key.expression, key.descending ? '<=' : '>=', value), rest]);
  return rest;
}

/**
 * An export's batch (ListQuery.batch): the next `size` rows of the list in its order, after the
 * last row of the previous batch (keyset pagination on the sort keys and the tiebreak), uncounted.
 * Each batch starts where the last one ended, so reading a whole list costs about one pass over
 * it however long it is, where page numbers would skip every earlier row again. On SQLite the
 * rows are read through a narrow filter's index, else the first sort key's, since every matching
 * row will be read in that order, and off the request thread where read threads run (`offload`).
 * Where the rest can be held open (`hold`: a cursor on PostgreSQL), the second batch opens it on
 * the rows after the first, and later batches take their rows from it without a query of their
 * own. The first batch stays a plain query: it answers the request's errors as a page would, and
 * whoever runs the batches has started, so it will close what is held. Where a read thread reads
 * the rows (`offload`), it reads several batches at a time, ahead of the export (read-ahead.ts).
 */
async function fetchBatch<DB, TB extends keyof DB, O, Row>(
  filtered: SelectQueryBuilder<DB, TB, O>,
  list: ListQuery,
  def: ListDefinition<DB, TB>,
  select: (query: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, Row>,
  hints: ListHints<DB, TB>,
): Promise<{ rows: Row[]; total: number }> {
  const batch = list.batch!;
  if (batch.held) return heldBatch<Row>(batch, batch.held);
  const keys: BatchKey[] = [];
  for (const term of list.ordering) {
    const target = def.ordering[term.field];
    if (!target) continue;
    const expression = typeof target === 'string' ? sql.ref(target) : target(expressionBuilder<DB, TB>());
    // declared nullable keys are ordered nulls first going up, last going down (fetchPageUnguarded)
    keys.push({ expression, descending: term.descending, nullsFirst: def.nullable?.has(term.field) ? !term.descending : undefined });
  }
  const descending = list.ordering[0]?.descending ?? false;
  keys.push({ expression: sql.ref(def.tiebreak), descending, nullsFirst: undefined });

  let index: string | undefined;
  const { indexes } = def;
  // PostgreSQL has no index hints (listOn drops them); a repository's own narrow hint is SQLite's too
  if (indexes) {
    const first = list.ordering[0];
    const narrow = hints.narrow ?? Object.entries(indexes.narrow ?? {}).find(([name]) => name in list.filters)?.[1];
    index = narrow ?? (first && !def.nullable?.has(first.field) ? indexes.ordered?.[first.field] : undefined);
  }
  const selected = select(indexedBy(filtered, index));
  /** the rows after `values` (all rows when null), in the list's order, with their sort keys */
  const rowsAfter = (values: readonly unknown[] | null) => {
    const rows = values === null ? selected : selected.where((eb) => after(eb, keys, values));
    let query = rows.select(keys.map((key, n) => sql`${key.expression}`.as(`${KEY_PREFIX}${n}`)));
    for (const key of keys) {
      const direction = (order: OrderByItemBuilder) => {
        const ordered = key.descending ? order.desc() : order.asc();
        if (key.nullsFirst === undefined) return ordered;
        return key.nullsFirst ? ordered.nullsFirst() : ordered.nullsLast();
      };
      query = query.orderBy(key.expression, direction);
    }
    return query;
  };
  const held = batch.after !== null ? await holdRest(rowsAfter(batch.after), hints.hold) : undefined;
  if (held) {
    batch.held = held;
    return heldBatch<Row>(batch, held);
  }
  const { offload } = hints;
  if (offload) {
    // another thread reads the rows: several batches a hand-over (listing/read-ahead.ts)
    batch.held = readAhead(
      (values, rows) => piecesOf(rowsAfter(values).limit(rows), offload),
      batch.size * READ_AHEAD_BATCHES,
      keysOfRow,
      batch.after,
    );
    return heldBatch<Row>(batch, batch.held);
  }
  return endBatch<Row>(batch, await rowsOf(rowsAfter(batch.after).limit(batch.size), undefined));
}

/** The rest of the list held open by `hold`, when it can be. */
async function holdRest(query: Compilable, hold: OpenHeldRead | undefined): Promise<HeldListRead | undefined> {
  if (!hold) return undefined;
  const compiled = query.compile();
  return hold(compiled.sql, compiled.parameters);
}

/** The next batch of a list held open: its rows, and the keys of its last row as a keyset batch sets them. */
async function heldBatch<Row>(batch: ListBatch, held: HeldListRead): Promise<{ rows: Row[]; total: number }> {
  const rows = (await held.read(batch.size)) as Array<Record<string, unknown>>;
  return endBatch<Row>(batch, rows);
}

/** The sort key values selected with a batched row. */
function keysOfRow(row: Record<string, unknown>): unknown[] {
  const keys: unknown[] = [];
  for (let n = 0; `${KEY_PREFIX}${n}` in row; n++) keys.push(row[`${KEY_PREFIX}${n}`]);
  return keys;
}

/** Records where the batch ended (the sort keys selected with its last row) and answers its rows. */
function endBatch<Row>(batch: ListBatch, rows: Array<Record<string, unknown>>): { rows: Row[]; total: number } {
  const last = rows.at(-1);
  batch.next = last ? keysOfRow(last) : null;
  batch.read = true;
  return { rows: rows as Row[], total: rows.length };
}

export const toBool = (value: number | boolean | null): boolean => value === 1 || value === true;
export const fromBool = (value: boolean): number => (value ? 1 : 0);
