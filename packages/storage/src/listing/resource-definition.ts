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
import { expressionBuilder, sql, type AliasedExpression, type Expression, type Kysely, type SelectQueryBuilder } from 'kysely';
import { describeFields, type DescribedField, type ListQuery, type ListSpec } from '@lectern/core';
import { foldCase, type ListNarrowing, type RqlFilter } from '@lectern/core/ports';
import { narrowList, rqlColumn, type ListJoins } from './rql-list.ts';
import { rqlDialectOf } from './rql-to-sql.ts';
import { dialectOf } from '../shared/dialect.ts';
import type { Aliases, Database } from '../schema.ts';
import type { RqlSqlField, RqlSqlFields } from './rql-to-sql.ts';
import { applyFilters, commonSearch, fetchPage, fromBool } from './list-builder.ts';
import type { Column, FilterSql, ListDefinition, ListHints, SearchColumn } from './list-definition.ts';
import { offloadedReadOf } from '../shared/offloaded-reads.ts';
import { heldReadsOf } from '../shared/held-reads.ts';
import { pageReadOf } from '../shared/prepared-query.ts';
import { internalAlias, recordBuilder, subAlias } from './record-builder.ts';
import type {
  ReadContext,
  ListTables,
  NoJoins,
  ListAlias,
  ListQueryOf,
  ReadQueryOf,
  Row,
  FieldOverride,
  ReferenceOverride,
  ResourceOptions,
  ResourceDefinition,
} from './resource-types.ts';

/**
 * A referenced table, looked up by public id under an alias of the reference's: the table and alias
 * are the reference's values, so only the two columns every such table has are typed.
 */
const byPublicId = expressionBuilder<Readonly<Record<string, { id: number; public_id: string }>>, never>();

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
  // a batch write turns hundreds of rows with the same few keys: each key's column is found once
  // (the keys are the record's and the schemas' own; the bound only guards against a surprise)
  const columnOfKey = new Map<string, string>();
  const toColumns = (changed: object) => {
    const set: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(changed)) {
      if (value === undefined) continue;
      let column = columnOfKey.get(key);
      if (column === undefined) {
        column = key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
        if (columnOfKey.size < 256) columnOfKey.set(key, column);
      }
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
    // page's first sort key has an index to walk); an export's batch is not costed (list-batches.ts)
    const first = narrowed.query.ordering[0];
    const walkable = first !== undefined && definition.indexes?.ordered?.[first.field] !== undefined && !query.batch;
    const all = walkable ? await tableSize() : size;
    const { rows, total } = await fetchPage(
      narrowed.filtered,
      narrowed.query,
      narrowed.definition,
      (q) => select(narrowed.joinRest(q), context),
      { ...hints, ...(all === undefined ? {} : { all }), ...readElsewhere(db, query, narrowing, hints.boundsPlannedAlike) },
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
 * thread costs; on PostgreSQL they run as named statements, whose plan may be kept (pageReadOf,
 * ListHints.keptPlan). The rule for which stay unnamed there: a list whose best plan depends on
 * how many rows a value selects. A search's term (commonSearch) and a range's bound can select a
 * handful of rows or most of the table, and PostgreSQL, once it keeps a plan made for any value
 * (`plan_cache_mode = auto`, after five runs), assumes a third for a bound: a count of a range it
 * planned that way read the index in parallel workers, 8.5–30 ms against 5–7 ms for the plan made
 * for the bound (docs/scaling.md). A range whose total is kept and whose page walks an index from
 * the bound is named all the same (`plannedAlike`: ListHints.boundsPlannedAlike). An offloaded
 * export also reads ahead (list-batches.ts). An export's batches after the first may come from a
 * read held open for them (shared/held-reads.ts: a cursor on PostgreSQL). The hints of every list
 * read on `db` with fetchPage, defined here or not (jobs, imports, events).
 */
export function readElsewhere(
  db: Kysely<Database>,
  query: ListQuery,
  narrowing?: ListNarrowing,
  plannedAlike = false,
): Pick<ListHints<never, never>, 'offload' | 'hold' | 'keptPlan'> {
  const hold = query.batch !== undefined ? heldReadsOf(db) : undefined;
  const heavy = query.search !== undefined || query.batch !== undefined;
  const ranged = Object.keys(query.ranges).length > 0 && !plannedAlike;
  const bounded = ranged || boundsRows(narrowing?.rql?.filter ?? null);
  const named = heavy || bounded ? undefined : pageReadOf(db);
  const offload = heavy ? offloadedReadOf(db) : named;
  return { ...(offload ? { offload } : {}), ...(hold ? { hold } : {}), ...(named ? { keptPlan: true } : {}) };
}

/**
 * Whether a report's expression selects rows by a bound or a pattern (`gt`, `le`, `like` with a
 * wildcard…), whose share of the rows only its value tells: readElsewhere's rule. Its every-user
 * `ilike(user.email,*@example.com)` ran 38 ms on the plan PostgreSQL keeps for any pattern against
 * 22 ms on the plan made for it. A pattern without a wildcard is an equality (rql-to-sql.ts).
 */
export function boundsRows(filter: RqlFilter | null): boolean {
  if (filter === null) return false;
  switch (filter.kind) {
    case 'field':
    case 'some': {
      const { test } = filter;
      return (
        test.op === 'gt' ||
        test.op === 'ge' ||
        test.op === 'lt' ||
        test.op === 'le' ||
        (test.op === 'like' && test.pattern.segments.length > 1)
      );
    }
    case 'and':
    case 'or':
      return filter.children.some(boundsRows);
    case 'not':
      return boundsRows(filter.child);
  }
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
