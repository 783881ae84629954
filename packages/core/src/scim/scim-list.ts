/** A SCIM list's window (RFC 7644 §3.4.2.4) and filter, as a ListQuery and a narrowing of the area's list. */
import type { ListNarrowing } from '../ports/list-narrowing.ts';
import type { RqlFilter } from '../reports/rql/rql-ast.ts';
import { readParam, type ListQuery, type QueryParams } from '../shared/list-query.ts';
import { invalidValue } from './scim-error.ts';
import { scimFilterToRql, type ScimFilterAttributes } from './scim-filter.ts';
import { listResponse, SCIM_DEFAULT_COUNT, SCIM_MAX_RESULTS } from './scim-schemas.ts';

export interface ScimList {
  query: ListQuery;
  narrowing: ListNarrowing;
  startIndex: number;
}

function integerParam(params: QueryParams, name: string): number | undefined {
  const raw = readParam(params, name);
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^-?\d{1,15}$/.test(raw.trim())) throw invalidValue(`'${name}' must be an integer.`);
  return Number(raw);
}

/**
 * `startIndex` below 1 counts as 1 and `count` is held to 0…maxResults, as the RFC says a server
 * treats them; `always` is what every read of the resource type must also satisfy.
 */
export function scimList(
  params: QueryParams,
  attributes: ScimFilterAttributes,
  orderBy: string,
  always: RqlFilter | null = null,
): ScimList {
  const startIndex = Math.max(1, integerParam(params, 'startIndex') ?? 1);
  const count = Math.min(SCIM_MAX_RESULTS, Math.max(0, integerParam(params, 'count') ?? SCIM_DEFAULT_COUNT));
  const text = readParam(params, 'filter');
  const filter = text !== undefined && text.trim() !== '' ? scimFilterToRql(text, attributes) : null;
  const combined = filter && always ? { kind: 'and' as const, children: [always, filter] } : (filter ?? always);
  return {
    query: { page: 1, pageSize: count, offset: startIndex - 1, filters: {}, ranges: {}, ordering: [{ field: orderBy, descending: false }] },
    narrowing: { rql: { filter: combined, ordering: [] } },
    startIndex,
  };
}

/** Whether `attribute` is named in `excludedAttributes` (comma-separated, any case). */
export function excludes(params: QueryParams, attribute: string): boolean {
  const excluded = readParam(params, 'excludedAttributes');
  return excluded !== undefined && excluded.split(',').some((name) => name.trim().toLowerCase() === attribute.toLowerCase());
}

export { listResponse };
