/**
 * What a list is made of, as a repository declares it: its filters, bounds, sort keys and search
 * over the tables its query reads, and what the repository knows of it besides (ListHints). The
 * list builder (list-builder.ts) and its batched reads (list-batches.ts) take these.
 *
 * Every type here is parameterised, as kysely's own, on the tables a list's query reads (`DB`,
 * storage's Database with the aliases the query gives its tables) and the aliases in scope (`TB`):
 * a filter, bound, sort key or searched column naming a column the list does not read, or
 * comparing it with a value of another type, is a compile error in the repository declaring it.
 */
import type { Expression, ExpressionBuilder, OperationNodeSource, SqlBool, StringReference } from 'kysely';
import type { FilterValue } from '@lectern/core';
import type { OffloadedRead, ReadQuery } from '../shared/offloaded-reads.ts';
import type { OpenHeldRead } from '../shared/held-reads.ts';

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
  /**
   * The exact number of matches from counts kept per write, as a query of one row: no COUNT of the
   * list's rows is run. Read with the page (as a subquery of its statement) or, where the page's
   * index depends on it, just before.
   */
  total?: TotalQuery;
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
  /**
   * `offload` runs the page as a statement whose plan the database may keep for every run (a named
   * statement on PostgreSQL, planned for any values): the page's size is written into its text,
   * since a plan made without it assumes a tenth of the matches is wanted, never the page of 25
   * an ordered index walk answers at once.
   */
  keptPlan?: boolean;
  /**
   * A range bounds the list, yet neither its total (`total`, kept) nor its page's plan (an index
   * walked in the page's order from the bound) depends on how many rows the bound selects: on
   * PostgreSQL the page may run by name with a kept plan, as an unbounded list does (readElsewhere).
   */
  boundsPlannedAlike?: boolean;
}

/** A query of one row holding a list's total: run alone, or a scalar subquery of the page's statement. */
export type TotalQuery = ReadQuery<{ total: number }> & OperationNodeSource;

/** A searched column: its name, or, as `{ folded }`, a column that already holds foldCase of the text. */
export type SearchColumn<DB, TB extends keyof DB> = Column<DB, TB> | { folded: Column<DB, TB> };

export interface SearchIndex<DB, TB extends keyof DB> {
  /** the FTS5 table, whose rowid is the resource's id */
  table: string;
  /** the resource's id column, as `u.id` */
  key: Column<DB, TB>;
}
