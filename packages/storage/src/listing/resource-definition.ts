/**
 * The storage side of a resource, derived from the one declaration of its fields: core's zod
 * schema of what the API returns, with list traits (packages/core/src/shared/listed-fields.ts).
 *
 * By convention a field `f` of the schema is the column `<alias>.f` of the resource's table, read
 * back as the schema's type says (a boolean from SQLite's 0/1); a reference (an object with
 * `public_id`, such as `manager`) is a join whose columns are named after the object's fields. So a
 * new plain field needs nothing here: the select list, the row → view mapping, the list filters,
 * bounds, sort keys and search, and the report fields all follow from the schema. What does not
 * follow the convention is stated once, as an override of that field.
 */
import {
  expressionBuilder,
  sql,
  type AliasedExpression,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import { describeFields, type DescribedField, type FilterValue, type ListQuery, type ListSpec } from '@lectern/core';
import { foldCase, type ListNarrowing } from '@lectern/core/ports';
import { narrowList, rqlColumn, type ListJoins } from './rql-list.ts';
import { rqlDialectOf } from './rql-to-sql.ts';
import { dialectOf } from '../shared/dialect.ts';
import type { Aliases, Database, Tables } from '../schema.ts';
import type { RqlSqlField, RqlSqlFields } from './rql-to-sql.ts';
import {
  applyFilters,
  commonSearch,
  fetchPage,
  fromBool,
  type Column,
  type FilterSql,
  type ListDefinition,
  type ListHints,
  type SearchColumn,
} from './list-builder.ts';
import { offloadedReadOf } from '../shared/offloaded-reads.ts';
import { heldReadsOf } from '../shared/held-reads.ts';
import { internalAlias, recordBuilder, subAlias } from './record-builder.ts';

/** What a field's SQL may depend on besides the row: the day, for rules such as overdue. */
export interface ReadContext {
  /** YYYY-MM-DD; resources whose SQL does not depend on the day are read without it */
  today: string;
}

type ComputedSql = (context: ReadContext) => Expression<unknown>;

/**
 * A resource's tables: `A`, those every list query of it reads (its own table, and any the
 * repository joins before filtering), and `J`, those its reads join for their columns (its
 * references and `joins`). Filters, bounds, sort keys and searched columns are typed on `A`'s
 * tables, the columns a record selects on both.
 */
type ListTables<A extends Aliases> = Tables<A>;
type NoJoins = Record<never, never>;
type ListAlias<A extends Aliases> = keyof A & string;
type ReadTables<A extends Aliases, J extends Aliases> = Tables<A & J>;
type ReadAlias<A extends Aliases, J extends Aliases> = keyof (A & J) & string;

/** A query over a resource's list tables, whatever it selects. */
export type ListQueryOf<A extends Aliases, O = object> = SelectQueryBuilder<ListTables<A>, ListAlias<A>, O>;

/** A query over every table of a resource's reads (its list tables and their joins). */
export type ReadQueryOf<A extends Aliases, J extends Aliases, O = object> = SelectQueryBuilder<ReadTables<A, J>, ReadAlias<A, J>, O>;

/** A join of a resource's reads: the query it is given, with one more table. */
export type Join<A extends Aliases> = ListJoins<ListTables<A>, ListAlias<A>>[string];

/**
 * A referenced table, looked up by public id under an alias of the reference's: the table and alias
 * are the reference's values, so only the two columns every such table has are typed.
 */
const byPublicId = expressionBuilder<Readonly<Record<string, { id: number; public_id: string }>>, never>();

/** A record's row, as its columns are selected: named at run time from core's schema. */
type Row = Record<string, unknown>;

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

/**
 * A list definition as `db` runs it: PostgreSQL has no FTS5 table (its trigram indexes serve the
 * substring rule itself, written as LIKE) and takes no index hints (it plans from its own
 * statistics); SQLite searches folded text with instr().
 */
export const listOn = <DB, TB extends keyof DB>(db: Kysely<Database>, definition: ListDefinition<DB, TB>): ListDefinition<DB, TB> => {
  if (!dialectOf(db).trigramSearch) return definition.search ? { ...definition, substring: 'instr' } : definition;
  return definition.searchIndex || definition.indexes ? { ...definition, searchIndex: undefined, indexes: undefined } : definition;
};

/** The storage side of the resource whose API schema is `shape` and whose list parameters are `spec`. */
export function defineResource<
  View,
  Internal extends Record<string, unknown> = { id: number },
  A extends Aliases = Aliases,
  J extends Aliases = NoJoins,
>(shape: Parameters<typeof describeFields>[0], spec: ListSpec, options: ResourceOptions<A, J>): ResourceDefinition<View, Internal, A, J> {
  type DB = ListTables<A>;
  type TB = ListAlias<A>;
  const { alias } = options;
  const fields = describeFields(shape);
  const override = (name: string): FieldOverride<A, J> => options.fields?.[name] ?? {};
  const reference = (field: DescribedField): ReferenceOverride<A> | undefined => {
    if (field.kind !== 'reference') return undefined;
    const ref = options.references?.[field.name];
    if (!ref) throw new Error(`the reference field '${field.name}' needs its join`);
    return ref;
  };

  // a list field is loaded by the repository (tags, owners) unless the row keeps it as JSON; an
  // object that is not a reference (an event's location) is assembled by the repository too
  const isSelected = (field: DescribedField) =>
    field.kind !== 'object' && !override(field.name).unselected && (field.kind !== 'list' || override(field.name).json === true);
  const tableOf = (name: string) =>
    Object.entries<readonly string[] | undefined>(options.fieldsOn ?? {}).find(([, names]) => names?.includes(name))?.[0] ?? alias;
  const columnOf = (name: string, context: ReadContext): Expression<unknown> => {
    const column = override(name).column ?? `${tableOf(name)}.${name}`;
    return typeof column === 'string' ? sql.ref(column) : column(context);
  };
  // A field's column is named after core's schema at run time, so kysely cannot check it: the
  // conventional name is taken on trust here, and the storage contract reads every field.
  const columnNameOf = (name: string): Column<DB, TB> | undefined => {
    const column = override(name).column ?? `${tableOf(name)}.${name}`;
    return typeof column === 'string' ? (column as Column<DB, TB>) : undefined;
  };

  // references to columns, not `column as alias` strings: the names are built at run time, which
  // kysely's select types cannot follow, and a reference compiles to the same SQL
  const columns = (context: ReadContext) => {
    const list: AliasedExpression<unknown, string>[] = Object.entries(options.internal).map(([key, column]) =>
      sql.ref(column).as(internalAlias(key)),
    );
    for (const field of fields) {
      const ref = reference(field);
      if (ref) {
        for (const sub of field.fields!) list.push(sql.ref(`${ref.alias}.${sub.name}`).as(subAlias(field.name, sub.name)));
      } else if (isSelected(field)) {
        list.push(sql`${columnOf(field.name, context)}`.as(field.name));
      }
    }
    return list;
  };

  const toRecord = recordBuilder<Internal, View>(
    Object.keys(options.internal),
    fields.filter(isSelected).map((field) => ({
      field,
      json: override(field.name).json === true,
      subs: reference(field) ? field.fields : undefined,
    })),
  );

  const joins: ListJoins<DB, TB> = {
    ...Object.fromEntries(Object.values(options.references ?? {}).map((ref) => [ref.alias, ref.join])),
    ...options.joins,
  };

  const list = (context: ReadContext): ListDefinition<DB, TB> => {
    const filters: Record<string, FilterSql<DB, TB>> = {};
    const ranges: Record<string, Column<DB, TB>> = { ...options.ranges };
    const ordering: ListDefinition<DB, TB>['ordering'] = {};
    const search: SearchColumn<DB, TB>[] = [];
    const nullable = new Set<string>();
    for (const field of fields) {
      const traits = field.traits;
      if (!traits) continue;
      const ref = reference(field);
      const { folded, sort, filter } = override(field.name);
      if (traits.filter && filter) {
        filters[field.name] = (eb, value) => filter(eb, value, context);
      } else if (traits.filter && ref) {
        const lookup = `${ref.alias}_by_public_id`;
        const ids = () => byPublicId.selectFrom(`${ref.table} as ${lookup}`).select(`${lookup}.id`);
        // a reference's filter value is a public id, or a list of them (core's ListSpec)
        filters[field.name] = (eb, value) =>
          Array.isArray(value)
            ? eb(eb.ref(ref.key).$castTo<number>(), 'in', ids().where(`${lookup}.public_id`, 'in', value))
            : eb(eb.ref(ref.key).$castTo<number>(), '=', ids().where(`${lookup}.public_id`, '=', value as string));
      } else if (traits.filter) {
        const column = columnOf(field.name, context);
        const boolean = field.kind === 'boolean';
        filters[field.name] = (eb, value) => {
          if (Array.isArray(value)) return eb(column, 'in', value);
          if (boolean) return eb(column, '=', fromBool(value === true));
          if (folded) return eb(sql.ref(folded), '=', foldCase(String(value)));
          return eb(column, '=', value);
        };
      }
      const name = columnNameOf(field.name);
      if (traits.range && name) ranges[field.name] = name;
      if (traits.sort) ordering[field.name] = sort ?? name ?? (() => columnOf(field.name, context));
      if (traits.sort && field.nullable) nullable.add(field.name);
      if (traits.search && name) search.push(folded ? { folded } : name);
    }
    for (const [name, filter] of Object.entries(options.filters ?? {})) filters[name] = filter;
    Object.assign(ordering, options.ordering);
    assertCovers(spec, filters, ranges, ordering);
    const index = options.searchIndex;
    const indexed = index && search.every((column) => index.columns.includes(typeof column === 'string' ? column : column.folded));
    // every resource's table has its key in `id`
    const searchIndex = indexed ? { searchIndex: { table: index.table, key: `${alias}.id` as Column<DB, TB> } } : {};
    return {
      filters,
      ranges,
      ...(search.length > 0 ? { search, ...searchIndex } : {}),
      ordering,
      ...(nullable.size > 0 ? { nullable } : {}),
      tiebreak: options.tiebreak,
      ...(options.indexes ? { indexes: options.indexes } : {}),
    };
  };

  const rql = (context: ReadContext): RqlSqlFields => {
    const result: Record<string, RqlSqlField> = {};
    for (const field of fields) {
      const ref = reference(field);
      if (ref) {
        for (const sub of field.fields!) {
          result[`${field.name}.${sub.name}`] = rqlColumn(`${ref.alias}.${sub.name}`, ref.folded?.[sub.name]);
        }
        continue;
      }
      const { folded, rql: custom } = override(field.name);
      if (custom) {
        result[field.name] = custom;
        continue;
      }
      if (field.kind === 'list' || field.kind === 'object') continue;
      const name = columnNameOf(field.name);
      const { join } = override(field.name);
      result[field.name] = name
        ? rqlColumn(name, folded)
        : { kind: 'scalar', column: columnOf(field.name, context), ...(join ? { join } : {}) };
    }
    return { ...result, ...options.rql };
  };

  const booleanColumns = new Set(
    fields.filter((field) => field.kind === 'boolean').map((field) => columnNameOf(field.name)?.split('.')[1]),
  );
  const jsonColumns = new Set(fields.filter((field) => override(field.name).json).map((field) => columnNameOf(field.name)?.split('.')[1]));
  // a folded copy is written with the text it folds, so the two never disagree
  const foldedColumns = new Map(
    fields.flatMap((field) => {
      const folded = override(field.name).folded;
      const column = columnNameOf(field.name)?.split('.')[1];
      return folded && column ? [[column, folded.split('.')[1]!] as const] : [];
    }),
  );
  const toColumns = (changed: object) => {
    const set: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(changed)) {
      if (value === undefined) continue;
      const column = key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      if (jsonColumns.has(column)) set[column] = JSON.stringify(value);
      else set[column] = booleanColumns.has(column) && typeof value === 'boolean' ? fromBool(value) : value;
      const folded = foldedColumns.get(column);
      if (folded) set[folded] = typeof value === 'string' ? foldCase(value) : value;
    }
    return set;
  };

  const selected = perDay(columns);
  const from = `${options.table} as ${alias}`;
  const select = <O>(query: ListQueryOf<A, O>, context?: ReadContext): ListQueryOf<A, O & Row> => query.select(selected(context));
  const joined = <O>(query: ListQueryOf<A, O>) => Object.values(joins).reduce((current, join) => join(current), query);
  // the table and alias are the options' values, which kysely's selectFrom cannot type: the query
  // is declared as reading the list's tables (a resource whose list joins more than its own table
  // before filtering, as events do, is not read through here)
  const read = (db: Kysely<Database>, context?: ReadContext) => {
    const table = db.selectFrom(from as keyof Database) as unknown as ListQueryOf<A>;
    return select(joined(table), context) as ReadQueryOf<A, J, Row>;
  };
  // derived once now, so a list parameter without SQL fails when the module loads, not at a request
  list({ today: '1970-01-01' });
  const listFor = perDay(list);
  const rqlFor = perDay(rql);
  const page = async (
    db: Kysely<Database>,
    filtered: ListQueryOf<A>,
    query: ListQuery,
    narrowing?: ListNarrowing,
    context?: ReadContext,
    hints: ListHints<DB, TB> = {},
  ) => {
    const listedOn = listOn(db, listFor(context));
    // the table's size, where kept counts do not give it: its largest id bounds it
    let size = hints.all;
    const tableSize = async () => (size ??= await largestId(db, options.table));
    // a common search term is checked row by row rather than through the trigram index (commonSearch)
    const common =
      listedOn.searchIndex !== undefined &&
      query.search !== undefined &&
      (await commonSearch(db, listedOn.searchIndex, query.search, await tableSize()));
    const definition = common ? { ...listedOn, searchIndex: undefined } : listedOn;
    const { checkedLast } = hints;
    const listed = (list: ListDefinition<DB, TB>) => {
      const applied = applyFilters(filtered, query, list);
      const checked = checkedLast ? applied.where(checkedLast) : applied;
      return narrowList(checked, query, list, rqlFor(context), joins, narrowing, rqlDialectOf(db));
    };
    const narrowed = listed(definition);
    // the same rows without the search index's candidates, for a page that walks an index in order
    const walked = definition.searchIndex && query.search !== undefined ? listed({ ...definition, searchIndex: undefined }) : undefined;
    // walking an order's index is costed against the whole table (its size read only when the
    // page's first sort key has an index to walk)
    const first = narrowed.query.ordering[0];
    const walkable = first !== undefined && definition.indexes?.ordered?.[first.field] !== undefined;
    const all = walkable ? await tableSize() : size;
    const { rows, total } = await fetchPage(
      narrowed.filtered,
      narrowed.query,
      narrowed.definition,
      (q) => select(narrowed.joinRest(q), context),
      { ...hints, ...(all === undefined ? {} : { all }), ...readElsewhere(db, query) },
      walked?.filtered,
    );
    return { total, records: rows.map(toRecord) };
  };
  return { from, columns: selected, joins, joined, select, read, toRecord, toColumns, page, list: listFor, rql: rqlFor };
}

/**
 * A search reads every row its index does not rule out, and an export every row of its list: on
 * SQLite they run off the request thread where the database allows it (shared/offloaded-reads.ts).
 * Other lists are read through indexes in a millisecond or two, less than handing them to another
 * thread costs. An export's batches after the first may come from a read held open for them
 * (shared/held-reads.ts: a cursor on PostgreSQL). The hints of every list read on `db` with
 * fetchPage, defined here or not (jobs, imports, events).
 */
export function readElsewhere(db: Kysely<Database>, query: ListQuery): Pick<ListHints<never, never>, 'offload' | 'hold'> {
  const offload = query.search !== undefined || query.batch !== undefined ? offloadedReadOf(db) : undefined;
  const hold = query.batch !== undefined ? heldReadsOf(db) : undefined;
  return { ...(offload ? { offload } : {}), ...(hold ? { hold } : {}) };
}

/** The largest id of `table` (SQLite's rowid): at least its number of rows, read from the end of its key. */
async function largestId(db: Kysely<Database>, table: string): Promise<number> {
  const row = await sql<{ id: number | null }>`select max(rowid) as id from ${sql.table(table)}`.execute(db);
  return Number(row.rows[0]?.id ?? 0);
}

/** Derives once per day rather than once per request: only the day changes what is derived. */
function perDay<T>(derive: (context: ReadContext) => T): (context?: ReadContext) => T {
  let last: { today: string; value: T } | undefined;
  return (context = { today: '' }) => {
    if (last?.today !== context.today) last = { today: context.today, value: derive(context) };
    return last.value;
  };
}

/** A list parameter core accepts but storage cannot answer is a bug to find at start, not at the first request. */
function assertCovers(spec: ListSpec, filters: object, ranges: object, ordering: object): void {
  const missing = [
    ...Object.keys(spec.filters).filter((name) => !(name in filters)),
    ...Object.keys(spec.ranges ?? {}).filter((name) => !(name in ranges)),
    ...spec.ordering.filter((name) => !(name in ordering)),
  ];
  if (missing.length > 0) throw new Error(`storage has no SQL for the list parameters ${missing.join(', ')}`);
}

/**
 * The usual record: its internal keys beside its view. Not `{ ...internal, view }`: a spread
 * followed by another property cost ten times more in V8 (every lookup and list row comes here).
 */
export function recordOf<Internal, View>({ internal, view }: { internal: Internal; view: View }): Internal & { view: View } {
  const record = Object.assign({}, internal) as Internal & { view: View };
  record.view = view;
  return record;
}

/**
 * The usual reference: the table under `alias`, joined on the foreign key `key` (`inner` when the
 * reference is never absent). A user's email is matched through its folded copy (`email_lower`).
 */
export function referenceTo<A extends Aliases>(
  table: keyof Database,
  alias: string,
  key: Column<ListTables<A>, ListAlias<A>>,
  join: 'inner' | 'left',
): ReferenceOverride<A> {
  const joined = `${table} as ${alias}`;
  return {
    alias,
    key,
    table,
    join: (query) => {
      // the table and alias are parameters, whose join kysely cannot type: the callers' key is typed above
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const untyped = query as SelectQueryBuilder<any, any, any>;
      return join === 'inner' ? untyped.innerJoin(joined, `${alias}.id`, key) : untyped.leftJoin(joined, `${alias}.id`, key);
    },
    ...(table === 'users' ? { folded: { email: `${alias}.email_lower` } } : {}),
  };
}
