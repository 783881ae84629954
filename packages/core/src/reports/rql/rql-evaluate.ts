/**
 * The in-memory evaluator of validated RQL, over plain objects (an API response shape, say).
 *
 * Semantics, chosen so that SQL reproduces them exactly (packages/storage/src/listing/rql-to-sql.ts):
 *
 * - Two-valued logic. Every test is true or false, never unknown: a test on a null field is false,
 *   except `eq(f,null())`. `not(e)` is the plain negation, so `ne(f,v)` (= `not(eq(f,v))`) and
 *   `out(f,…)` are true when f is null. SQL gets this by guarding each comparison with `IS NOT NULL`.
 * - A dotted property walks into nested objects; a null or missing object on the way makes the value
 *   null (as a LEFT JOIN does). `undefined` counts as null.
 * - Strings compare by code point (SQLite's BINARY collation compares UTF-8 bytes, the same order;
 *   JavaScript's `<` compares UTF-16 units, which differs above U+FFFF). A lone surrogate counts as
 *   the code point of its own value: that is where the bytes better-sqlite3 stores for it (the
 *   3-byte form of that value, as WTF-8 writes it) sort, between U+D7FF and U+E000.
 * - `like` is case-sensitive; `ilike` and `search` fold case with foldCase (all of Unicode).
 * - A value whose JavaScript type does not match the field's (a string in an integer field) fails
 *   every test but `ne`/`out`. Date objects are read as their ISO string.
 * - An array field passes when some element passes; a missing array has no elements. A dotted path
 *   through an array of objects (`groups.name`) collects that field of every element, as the EXISTS
 *   subquery over a join table does in SQL.
 */
import type { RqlFilter, RqlOrder, RqlScalar, RqlTest, RqlValidated } from './rql-ast.ts';
import { matchesRqlPattern } from './rql-pattern.ts';

/** The value at a dotted path, null when any step is missing or not an object. */
export function readRqlPath(object: unknown, path: string): unknown {
  let current: unknown = object;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return null;
    current = (current as Record<string, unknown>)[key];
  }
  return normalise(current);
}

/**
 * The elements an array field holds at a dotted path. Arrays met on the way are walked element by
 * element; a value counts only when some array was crossed to reach it, so a scalar where a list is
 * expected has no elements rather than passing as a list of one.
 */
export function readRqlElements(object: unknown, path: string): unknown[] {
  return elementsAt(object, path.split('.'), false);
}

function elementsAt(value: unknown, keys: readonly string[], inArray: boolean): unknown[] {
  if (Array.isArray(value)) return value.flatMap((element) => elementsAt(element, keys, true));
  if (keys.length === 0) return inArray && value !== null && value !== undefined ? [normalise(value)] : [];
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, keys[0]!)) return [];
  return elementsAt((value as Record<string, unknown>)[keys[0]!], keys.slice(1), inArray);
}

function normalise(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  return value;
}

/** Orders two strings by code point rather than by UTF-16 unit; a lone surrogate is its own value. */
export function compareCodePoints(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    // codePointAt combines a pair and returns a lone surrogate as it is: exactly WTF-8's order
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(j)!;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return a.length - i - (b.length - j);
}

/** Compares two values of the same scalar type; null when the types differ or a number is NaN. */
export function compareRqlScalars(a: unknown, b: RqlScalar): number | null {
  if (typeof a !== typeof b) return null;
  if (typeof a === 'string') return compareCodePoints(a, b as string);
  if (typeof a === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'number') {
    if (Number.isNaN(a)) return null;
    return a < (b as number) ? -1 : a > (b as number) ? 1 : 0;
  }
  return null;
}

function passes(test: RqlTest, value: unknown): boolean {
  if (test.op === 'null') return value === null;
  if (value === null) return false;
  switch (test.op) {
    case 'in':
      return test.values.some((candidate) => compareRqlScalars(value, candidate) === 0);
    case 'like':
      return typeof value === 'string' && matchesRqlPattern(test.pattern, value, test.caseInsensitive);
    default: {
      const order = compareRqlScalars(value, test.value);
      if (order === null) return false;
      switch (test.op) {
        case 'eq':
          return order === 0;
        case 'gt':
          return order > 0;
        case 'ge':
          return order >= 0;
        case 'lt':
          return order < 0;
        case 'le':
          return order <= 0;
      }
    }
  }
}

export function evaluateRqlFilter(filter: RqlFilter, object: unknown): boolean {
  switch (filter.kind) {
    case 'field':
      return passes(filter.test, readRqlPath(object, filter.field));
    case 'some':
      return readRqlElements(object, filter.field).some((element) => passes(filter.test, element));
    case 'and':
      return filter.children.every((child) => evaluateRqlFilter(child, object));
    case 'or':
      return filter.children.some((child) => evaluateRqlFilter(child, object));
    case 'not':
      return !evaluateRqlFilter(filter.child, object);
  }
}

/** Whether an object satisfies a validated expression; an expression without a filter matches everything. */
export function matchesRql(validated: Pick<RqlValidated, 'filter'>, object: unknown): boolean {
  return validated.filter === null || evaluateRqlFilter(validated.filter, object);
}

const TYPE_RANK: Record<string, number> = { boolean: 0, number: 1, string: 2 };

function compareForSort(a: unknown, b: unknown): number {
  // Nulls first ascending, as SQLite sorts (PostgreSQL needs NULLS FIRST / NULLS LAST to agree).
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  const order = compareRqlScalars(a, b as RqlScalar);
  if (order !== null) return order;
  return (TYPE_RANK[typeof a] ?? 3) - (TYPE_RANK[typeof b] ?? 3);
}

/** A comparator for Array.prototype.sort following `ordering(...)`; ties keep the input order. */
export function compareByRql(ordering: readonly RqlOrder[]): (a: unknown, b: unknown) => number {
  return (a, b) => {
    for (const { field, descending } of ordering) {
      const order = compareForSort(readRqlPath(a, field), readRqlPath(b, field));
      if (order !== 0) return descending ? -order : order;
    }
    return 0;
  };
}

/** A sorted copy; the sort is stable, so equal items keep their order. */
export function sortByRql<T>(items: readonly T[], ordering: readonly RqlOrder[]): T[] {
  return [...items].sort(compareByRql(ordering));
}
