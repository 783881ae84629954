/**
 * The one way list endpoints read their query string: paging, filters, `__gte`/`__lte` bounds,
 * `search` and comma-separated `ordering`. Each area declares a ListSpec; the storage adapter
 * turns the parsed ListQuery into SQL (packages/storage/src/listing/list-builder.ts).
 */
import { badRequest, validationError } from './errors.ts';
import { isUuid, MAX_INTEGER_ID } from './ids.ts';
import { takeListBatch, type ListBatch } from './list-batch.ts';
import { parseDate, parseDatetimeBound } from './time.ts';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

export type FilterDef =
  /** `maxLength`: longer values are a 400 (a tag name, say, can never be longer than tags may be) */
  | { kind: 'string'; maxLength?: number }
  | { kind: 'boolean' }
  | { kind: 'integer' }
  | { kind: 'uuid'; multiple?: boolean }
  | { kind: 'enum'; values: readonly string[]; multiple?: boolean }
  /**
   * comma-separated list of free strings (e.g. tag names). `maxValues` bounds the list: each value
   * becomes one SQL condition, and an unbounded number of them exceeds what the database can parse.
   */
  | { kind: 'strings'; maxValues?: number; maxLength?: number };

export type RangeKind = 'datetime' | 'date';

export interface ListSpec {
  filters: Record<string, FilterDef>;
  /** fields accepting `<field>__gte` and `<field>__lte` */
  ranges?: Record<string, RangeKind>;
  search?: boolean;
  ordering: readonly string[];
  /** applied when the client sends no `ordering`; the adapter always adds a unique tiebreak */
  defaultOrdering: readonly string[];
}

export type FilterValue = string | number | boolean | string[];

export interface OrderTerm {
  field: string;
  descending: boolean;
}

export interface ListQuery {
  page: number;
  pageSize: number;
  filters: Record<string, FilterValue>;
  ranges: Record<string, { gte?: string; lte?: string }>;
  search?: string;
  ordering: OrderTerm[];
  /**
   * An export's read (shared/list-batch.ts): the rows after `batch.after`, `batch.size` of them,
   * uncounted; `page` and `pageSize` are then ignored.
   */
  batch?: ListBatch;
  /** rows to skip, in place of `(page - 1) * pageSize`: a SCIM list starts at any index, not a page */
  offset?: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * Query parameters as the edge hands them over: a URLSearchParams or a plain record. An embedder's
 * record may hold numbers and booleans (`{ page_size: 5 }`), read as the text a URL would carry;
 * null stands for a parameter not given.
 */
export type QueryParams = URLSearchParams | Record<string, string | number | boolean | null | undefined>;

/**
 * One query parameter's value: where every query parameter enters the core. No parameter may hold
 * the NUL character: PostgreSQL's text cannot, and refusing it on every database keeps the two
 * alike (docs/api.md, "Conventions"). Plain-JavaScript callers can pass anything, so a value that
 * is not text, a number or a boolean is a `validation_error` naming it, not a TypeError.
 */
export function readParam(params: QueryParams, key: string): string | undefined {
  const raw: unknown = params instanceof URLSearchParams ? params.get(key) : Object.hasOwn(params, key) ? params[key] : undefined;
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  if (typeof raw !== 'string')
    throw validationError({ [key]: ['Must be text, a number or true/false.'] }, 'The query parameters failed validation.');
  if (raw.includes('\u0000')) throw badRequest(`Query parameter '${key}' must not contain the NUL character (%00).`);
  return raw;
}
const read = readParam;

function positiveInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw badRequest(`Query parameter '${name}' must be an integer of at least 1.`);
  return Number(raw);
}

const splitList = (raw: string) =>
  raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);

function parseFilter(name: string, def: FilterDef, raw: string): FilterValue {
  const invalid = (what: string) => badRequest(`Query parameter '${name}' ${what}.`);
  switch (def.kind) {
    case 'string':
      if (def.maxLength !== undefined && raw.length > def.maxLength) throw invalid(`must be at most ${def.maxLength} characters long`);
      return raw;
    case 'boolean': {
      const lowered = raw.toLowerCase();
      if (lowered === 'true') return true;
      if (lowered === 'false') return false;
      throw invalid("must be 'true' or 'false'");
    }
    case 'integer':
      // the integers filtered on are ids: beyond PostgreSQL's integer they name nothing and make it fail
      if (!/^-?\d+$/.test(raw) || Math.abs(Number(raw)) > MAX_INTEGER_ID) throw invalid(`must be an integer of at most ${MAX_INTEGER_ID}`);
      return Number(raw);
    case 'uuid': {
      const values = def.multiple ? splitList(raw) : [raw];
      if (values.length === 0 || !values.every(isUuid))
        throw invalid(def.multiple ? 'must be a comma-separated list of UUIDs' : 'must be a UUID');
      return def.multiple ? values : values[0]!;
    }
    case 'enum': {
      const values = def.multiple ? splitList(raw) : [raw];
      const bad = values.filter((value) => !def.values.includes(value));
      if (values.length === 0 || bad.length > 0) throw invalid(`must be one of: ${def.values.join(', ')}`);
      return def.multiple ? values : values[0]!;
    }
    case 'strings': {
      const values = splitList(raw);
      if (values.length === 0) throw invalid('must name at least one value');
      if (def.maxValues !== undefined && values.length > def.maxValues) throw invalid(`may name at most ${def.maxValues} values`);
      if (def.maxLength !== undefined && values.some((value) => value.length > def.maxLength!)) {
        throw invalid(`may hold values of at most ${def.maxLength} characters`);
      }
      return values;
    }
  }
}

/**
 * The terms of an `ordering` value (`-created,name`; repeats count once) and the fields among them
 * that `spec` cannot sort by. Saved reports store such a value and check it when it is saved.
 */
export function readOrdering(spec: ListSpec, raw: string): { ordering: OrderTerm[]; unsortable: string[] } {
  const seen = new Set<string>();
  const ordering: OrderTerm[] = [];
  const unsortable: string[] = [];
  for (const term of splitList(raw)) {
    const descending = term.startsWith('-');
    const field = descending || term.startsWith('+') ? term.slice(1) : term;
    if (!spec.ordering.includes(field)) unsortable.push(field);
    else if (!seen.has(field)) ordering.push({ field, descending });
    seen.add(field);
  }
  return { ordering, unsortable };
}

function parseOrdering(spec: ListSpec, raw: string | undefined): OrderTerm[] {
  const { ordering, unsortable } = readOrdering(spec, raw === undefined || raw.trim() === '' ? spec.defaultOrdering.join(',') : raw);
  if (unsortable.length > 0) {
    throw badRequest(`Query parameter 'ordering' cannot sort by '${unsortable[0]}'. Sortable fields: ${spec.ordering.join(', ')}.`);
  }
  return ordering;
}

/** `page_size`: 25 when absent, clamped to 100, 400 when not a positive integer. */
export function parsePageSize(params: QueryParams): number {
  return Math.min(positiveInteger('page_size', read(params, 'page_size'), DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE);
}

/** Reads one query parameter, whichever form the edge handed over. */
export const queryParam = read;

/** Parses and validates a list request. Unknown parameters are ignored; malformed known ones are 400. */
export function parseListQuery(spec: ListSpec, params: QueryParams): ListQuery {
  const page = positiveInteger('page', read(params, 'page'), 1);
  const pageSize = parsePageSize(params);

  const filters: Record<string, FilterValue> = {};
  for (const [name, def] of Object.entries(spec.filters)) {
    const raw = read(params, name);
    if (raw === undefined || raw === '') continue;
    filters[name] = parseFilter(name, def, raw);
  }

  const ranges: ListQuery['ranges'] = {};
  for (const [field, kind] of Object.entries(spec.ranges ?? {})) {
    for (const bound of ['gte', 'lte'] as const) {
      const name = `${field}__${bound}`;
      const raw = read(params, name);
      if (raw === undefined || raw === '') continue;
      const value = kind === 'date' ? parseDate(raw) : parseDatetimeBound(raw, bound);
      if (value === null) {
        throw badRequest(
          `Query parameter '${name}' must be ${kind === 'date' ? 'a date (YYYY-MM-DD)' : 'an ISO-8601 datetime or a date'}.`,
        );
      }
      (ranges[field] ??= {})[bound] = value;
    }
  }

  const search = spec.search ? read(params, 'search')?.trim() : undefined;
  const ordering = parseOrdering(spec, read(params, 'ordering'));
  // taken last, once the parameters are known good: a list that refuses them takes no batch
  const batch = takeListBatch();
  return { page, pageSize, filters, ranges, ...(search ? { search } : {}), ordering, ...(batch ? { batch } : {}) };
}

/** The pagination envelope every list endpoint returns. */
export interface ListResult<T> {
  data: T[];
  meta: { page: number; page_size: number; total_count: number };
}

export function toListResult<R, T>(query: ListQuery, page: Page<R>, view: (record: R) => T): ListResult<T> {
  return {
    data: page.items.map(view),
    meta: { page: query.page, page_size: query.pageSize, total_count: page.total },
  };
}

/** The envelope of cursor-paginated lists (webhook deliveries): no page numbers or totals. */
export interface CursorListResult<T> {
  data: T[];
  meta: { page_size: number; next_cursor: string | null };
}

/**
 * A cursor page (webhook deliveries, the audit log): the store read one row past the page to say
 * whether another follows; the next cursor is the id of the page's last row.
 */
export function toCursorListResult<T>(
  pageSize: number,
  page: { items: T[]; hasMore: boolean },
  idOf: (item: T) => string,
): CursorListResult<T> {
  const last = page.items.at(-1);
  return { data: page.items, meta: { page_size: pageSize, next_cursor: page.hasMore && last ? idOf(last) : null } };
}
