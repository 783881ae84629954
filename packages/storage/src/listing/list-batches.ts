/**
 * An export's batches (ListQuery.batch): a list read a batch at a time in its order, each batch
 * after the last row of the one before (keyset pagination), or from a read held open for them.
 */
import {
  expressionBuilder,
  sql,
  type Compilable,
  type Expression,
  type ExpressionBuilder,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import type { HeldListRead, ListBatch, ListQuery } from '@lectern/core';
import { indexedBy } from '../shared/index-hint.ts';
import { piecesOf, rowsOf } from '../shared/offloaded-reads.ts';
import type { OpenHeldRead } from '../shared/held-reads.ts';
import type { ListDefinition, ListHints } from './list-definition.ts';
import { keyOrder, listIndexes } from './list-order.ts';
import { readAhead, READ_AHEAD_BATCHES } from './read-ahead.ts';

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
export async function fetchBatch<DB, TB extends keyof DB, O, Row>(
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
    // declared nullable keys are ordered nulls first going up, last going down (keyOrder)
    keys.push({ expression, descending: term.descending, nullsFirst: def.nullable?.has(term.field) ? !term.descending : undefined });
  }
  const descending = list.ordering[0]?.descending ?? false;
  keys.push({ expression: sql.ref(def.tiebreak), descending, nullsFirst: undefined });

  // every matching row will be read, so in the first sort key's order unless a filter keeps few
  const found = listIndexes(list, def, hints);
  const selected = select(indexedBy(filtered, found?.narrow ?? found?.ordered));
  /** the rows after `values` (all rows when null), in the list's order, with their sort keys */
  const rowsAfter = (values: readonly unknown[] | null) => {
    const rows = values === null ? selected : selected.where((eb) => after(eb, keys, values));
    let query = rows.select(keys.map((key, n) => sql`${key.expression}`.as(`${KEY_PREFIX}${n}`)));
    for (const key of keys) query = query.orderBy(key.expression, keyOrder(key.descending, key.nullsFirst !== undefined));
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
