/**
 * The types a resource is declared with (resource-definition.ts): its tables, the overrides of its
 * fields and references, and what the definition derived from them offers the repositories.
 */
import type { AliasedExpression, Expression, ExpressionBuilder, Kysely, SelectQueryBuilder, SqlBool } from 'kysely';
import type { FilterValue, ListQuery } from '@lectern/core';
import type { ListNarrowing } from '@lectern/core/ports';
import type { Aliases, Database, Tables } from '../schema.ts';
import type { Column, FilterSql, ListDefinition, ListHints } from './list-definition.ts';
import type { ListJoins } from './rql-list.ts';
import type { RqlSqlField, RqlSqlFields } from './rql-to-sql.ts';

/** What a field's SQL may depend on besides the row: the day, for rules such as overdue. */
export interface ReadContext {
  /** YYYY-MM-DD; resources whose SQL does not depend on the day are read without it */
  today: string;
}

export type ComputedSql = (context: ReadContext) => Expression<unknown>;

/**
 * A resource's tables: `A`, those every list query of it reads (its own table, and any the
 * repository joins before filtering), and `J`, those its reads join for their columns (its
 * references and `joins`). Filters, bounds, sort keys and searched columns are typed on `A`'s
 * tables, the columns a record selects on both.
 */
export type ListTables<A extends Aliases> = Tables<A>;
export type NoJoins = Record<never, never>;
export type ListAlias<A extends Aliases> = keyof A & string;
export type ReadTables<A extends Aliases, J extends Aliases> = Tables<A & J>;
export type ReadAlias<A extends Aliases, J extends Aliases> = keyof (A & J) & string;

/** A query over a resource's list tables, whatever it selects. */
export type ListQueryOf<A extends Aliases, O = object> = SelectQueryBuilder<ListTables<A>, ListAlias<A>, O>;

/** A query over every table of a resource's reads (its list tables and their joins). */
export type ReadQueryOf<A extends Aliases, J extends Aliases, O = object> = SelectQueryBuilder<ReadTables<A, J>, ReadAlias<A, J>, O>;

/** A join of a resource's reads: the query it is given, with one more table. */
export type Join<A extends Aliases> = ListJoins<ListTables<A>, ListAlias<A>>[string];

/** A record's row, as its columns are selected: named at run time from core's schema. */
export type Row = Record<string, unknown>;

export interface FieldOverride<A extends Aliases, J extends Aliases = NoJoins> {
  /** where the field is read, when not `<alias>.<field>`: another column, or SQL computed per row */
  column?: Column<ReadTables<A, J>, ReadAlias<A, J>> | ComputedSql;
  /** the column holds the value as JSON text (a list of scope names) */
  json?: true;
  /** the alias of a join of `joins` that computed SQL reads (a report on the field adds the join) */
  join?: string;
  /** a column kept equal to foldCase(column): equality filters and `ilike` compare it, with its index */
  folded?: Column<ListTables<A>, ListAlias<A>>;
  /** the `?<field>=` filter, when not equality (a name filter matches part of the name; overdue depends on the day) */
  filter?: (eb: ExpressionBuilder<ListTables<A>, ListAlias<A>>, value: FilterValue, context: ReadContext) => Expression<SqlBool>;
  /** the sort key, when not the column itself (names sort ignoring case) */
  sort?: ListDefinition<ListTables<A>, ListAlias<A>>['ordering'][string];
  /**
   * the field is not read with the row: the view gets it elsewhere (core computes it, or the
   * repository loads a list field such as `tags` in a second query)
   */
  unselected?: true;
  /** the report field, when not the column (a list field is an EXISTS over its rows: rqlList) */
  rql?: RqlSqlField;
}

export interface ReferenceOverride<A extends Aliases> {
  /** the alias of the referenced table in the resource's queries */
  alias: string;
  /** the foreign key column on the resource's table */
  key: Column<ListTables<A>, ListAlias<A>>;
  /** the referenced table, looked up by `public_id` for the `?<field>=<public_id>` filter */
  table: keyof Database;
  /** the join, on the list query (reports) and every read */
  join: Join<A>;
  /** folded columns of the referenced table, by sub-field (`email` → `m.email_lower`) */
  folded?: Readonly<Record<string, string>>;
}

export interface ResourceOptions<A extends Aliases, J extends Aliases = NoJoins> {
  /** the table and the alias every query of the resource gives it, as `users as u` */
  table: keyof Database;
  alias: ListAlias<A>;
  /** record keys the view does not show (ids the areas join on, a secret): `{ id: 'u.id', managerId: 'u.manager_id' }` */
  internal: Readonly<Record<string, Column<ReadTables<A, J>, ReadAlias<A, J>>>>;
  fields?: Readonly<Record<string, FieldOverride<A, J>>>;
  references?: Readonly<Record<string, ReferenceOverride<A>>>;
  /** joins that are not references, read by computed fields (an enrollment's assignment), by alias */
  joins?: ListJoins<ListTables<A>, ListAlias<A>>;
  /** report fields that are not columns: the parts of a list field (`owners.email`), as rqlList */
  rql?: Readonly<Record<string, RqlSqlField>>;
  /** SQL of the list's filters that are not fields (core's ListSpec adds them by name) */
  filters?: Readonly<Record<string, FilterSql<ListTables<A>, ListAlias<A>>>>;
  /** SQL of the list's bounds and sort keys that are not fields */
  ranges?: Readonly<Record<string, Column<ListTables<A>, ListAlias<A>>>>;
  ordering?: ListDefinition<ListTables<A>, ListAlias<A>>['ordering'];
  /** fields kept on another table of the resource's query than its own, by that table's alias */
  fieldsOn?: Readonly<Partial<Record<ListAlias<A>, readonly string[]>>>;
  /** a unique column that makes every order total */
  tiebreak: Column<ListTables<A>, ListAlias<A>>;
  /**
   * SQLite's FTS5 trigram table over the folded searched columns, keyed by the resource's id
   * (migration 0012), and the columns it holds: `search` of three or more characters narrows
   * through it, as long as it holds every searched column (a searched field added later is
   * searched by scanning until a migration adds it to the index)
   */
  searchIndex?: { table: string; columns: readonly string[] };
  /** SQLite's indexes for filters that keep few rows and for sort keys (ListDefinition.indexes) */
  indexes?: ListDefinition<ListTables<A>, ListAlias<A>>['indexes'];
}

export interface ResourceDefinition<View, Internal, A extends Aliases, J extends Aliases = NoJoins> {
  /** `FROM` of every read: the table under its alias */
  from: string;
  /** the select list of a record (joins of `joins` included): one entry per column or computed field */
  columns: (context?: ReadContext) => readonly AliasedExpression<unknown, string>[];
  /** every read's joins, by alias */
  joins: ListJoins<ListTables<A>, ListAlias<A>>;
  /** `query` (over the resource's table) with every join of `joins` */
  joined: <O>(query: ListQueryOf<A, O>) => ListQueryOf<A, O>;
  /** `query` (over the resource's table and joins) selecting the record's columns */
  select: <O>(query: ListQueryOf<A, O>, context?: ReadContext) => ListQueryOf<A, O & Row>;
  /** the table with every join, selecting the record's columns: the start of every read by key */
  read: (db: Kysely<Database>, context?: ReadContext) => ReadQueryOf<A, J, Row>;
  /** a row selected with `columns` → the record's internal keys and its view */
  toRecord: (row: Record<string, unknown>) => { internal: Internal; view: View };
  /**
   * core's new row or changes of a record (camelCase keys, `undefined` for what stays) as the
   * columns of the resource's table they set: `employeeId` → `employee_id`, booleans and JSON as the
   * database stores them. The one way every repository writes an insert's and an update's values.
   */
  toColumns: (values: object) => Record<string, unknown>;
  /**
   * One page of the resource: the list query's filters, bounds and search, then a saved report's
   * narrowing (its RQL over the same SQL fields), counted and paged. `filtered` is the resource's
   * table under its alias with the conditions every read has (not deleted, visible to the caller).
   * This is the one resolver from list parameters and RQL to SQL, so lists and reports agree.
   */
  page: (
    db: Kysely<Database>,
    filtered: ListQueryOf<A>,
    query: ListQuery,
    narrowing?: ListNarrowing,
    context?: ReadContext,
    hints?: ListHints<ListTables<A>, ListAlias<A>>,
  ) => Promise<{ total: number; records: Array<{ internal: Internal; view: View }> }>;
  /** the list filters, bounds, sort keys and search */
  list: (context?: ReadContext) => ListDefinition<ListTables<A>, ListAlias<A>>;
  /** the report fields, by their dotted names */
  rql: (context?: ReadContext) => RqlSqlFields;
}
