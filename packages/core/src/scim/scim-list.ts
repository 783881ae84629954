/**
 * A SCIM list's window (RFC 7644 §3.4.2.4), filter, sort (§3.4.2.3) and attribute selection, as a
 * ListQuery and a narrowing of the area's list. A search request (§3.4.3) is read into the same.
 */
import { z } from 'zod';
import type { ListNarrowing } from '../ports/list-narrowing.ts';
import type { RqlFilter, RqlOrder } from '../reports/rql/rql-ast.ts';
import { readParam, type ListQuery, type QueryParams } from '../shared/list-query.ts';
import { attributeSelection, type AttributeSelection } from './scim-attributes.ts';
import { invalidSyntax, invalidValue } from './scim-error.ts';
import { scimFilterToRql, type ScimFilterAttributes } from './scim-filter.ts';
import { listResponse, SCIM_DEFAULT_COUNT, SCIM_MAX_RESULTS, SCIM_SEARCH_REQUEST } from './scim-schemas.ts';

/**
 * What a `sortBy` attribute orders by: a field the area's list sorts by (the API's own ordering,
 * which ignores case where the API does), or with `rql` a report field (ordered through the narrowing).
 */
export interface ScimSortAttribute {
  field: string;
  rql?: boolean;
}

export interface ScimListSpec {
  filter: ScimFilterAttributes;
  /** keyed by the attribute path in lower case */
  sort: Readonly<Record<string, ScimSortAttribute>>;
  /** the list's order when no sortBy is sent */
  defaultOrder: string;
}

export interface ScimList {
  query: ListQuery;
  narrowing: ListNarrowing;
  startIndex: number;
  selection: AttributeSelection;
}

function integerParam(params: QueryParams, name: string): number | undefined {
  const raw = readParam(params, name);
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^-?\d{1,15}$/.test(raw.trim())) throw invalidValue(`'${name}' must be an integer.`);
  return Number(raw);
}

function orderOf(params: QueryParams, spec: ScimListSpec): { ordering: ListQuery['ordering']; rql: RqlOrder[] } {
  const sortBy = readParam(params, 'sortBy')?.trim();
  const sortOrder = readParam(params, 'sortOrder')?.trim().toLowerCase();
  if (sortOrder !== undefined && sortOrder !== '' && sortOrder !== 'ascending' && sortOrder !== 'descending') {
    throw invalidValue("'sortOrder' must be 'ascending' or 'descending'.");
  }
  if (sortBy === undefined || sortBy === '') return { ordering: [{ field: spec.defaultOrder, descending: false }], rql: [] };
  const attribute = spec.sort[sortBy.toLowerCase()];
  if (!attribute) throw invalidValue(`Cannot sort by '${sortBy}'; sortBy takes one of: ${Object.keys(spec.sort).join(', ')}.`);
  const term = { field: attribute.field, descending: sortOrder === 'descending' };
  return attribute.rql ? { ordering: [], rql: [term] } : { ordering: [term], rql: [] };
}

/**
 * `startIndex` below 1 counts as 1 and `count` is held to 0…maxResults, as the RFC says a server
 * treats them; `always` is what every read of the resource type must also satisfy.
 */
export function scimList(params: QueryParams, spec: ScimListSpec, always: RqlFilter | null = null): ScimList {
  const startIndex = Math.max(1, integerParam(params, 'startIndex') ?? 1);
  const count = Math.min(SCIM_MAX_RESULTS, Math.max(0, integerParam(params, 'count') ?? SCIM_DEFAULT_COUNT));
  const text = readParam(params, 'filter');
  const filter = text !== undefined && text.trim() !== '' ? scimFilterToRql(text, spec.filter) : null;
  const combined = filter && always ? { kind: 'and' as const, children: [always, filter] } : (filter ?? always);
  const { ordering, rql } = orderOf(params, spec);
  return {
    query: { page: 1, pageSize: count, offset: startIndex - 1, filters: {}, ranges: {}, ordering },
    narrowing: { rql: { filter: combined, ordering: rql } },
    startIndex,
    selection: scimSelection(params),
  };
}

/** `attributes` and `excludedAttributes` of a GET (or of a search, read into the same parameters). */
export function scimSelection(params: QueryParams): AttributeSelection {
  const listed = (name: string) => {
    const value = readParam(params, name);
    return value === undefined ? undefined : [value];
  };
  return attributeSelection(listed('attributes'), listed('excludedAttributes'));
}

const attributeList = z.union([z.array(z.string()), z.string().transform((text) => [text])]).optional();

const searchRequest = z.looseObject({
  schemas: z.array(z.string()).optional(),
  attributes: attributeList,
  excludedAttributes: attributeList,
  filter: z.string().optional(),
  sortBy: z.string().optional(),
  sortOrder: z.string().optional(),
  startIndex: z.union([z.number().int(), z.string()]).optional(),
  count: z.union([z.number().int(), z.string()]).optional(),
});

/** A `POST …/.search` body (RFC 7644 §3.4.3) as the query parameters a GET would send. */
export function searchParams(body: unknown): Record<string, string> {
  const parsed = searchRequest.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidValue(`Not a SearchRequest: '${issue.path.join('.') || 'body'}': ${issue.message}`);
  }
  const { schemas, attributes, excludedAttributes, ...rest } = parsed.data;
  if (schemas && !schemas.includes(SCIM_SEARCH_REQUEST)) throw invalidSyntax(`A search's schemas must include '${SCIM_SEARCH_REQUEST}'.`);
  const params: Record<string, string> = {};
  for (const name of ['filter', 'sortBy', 'sortOrder', 'startIndex', 'count'] as const) {
    if (rest[name] !== undefined) params[name] = String(rest[name]);
  }
  if (attributes) params.attributes = attributes.join(',');
  if (excludedAttributes) params.excludedAttributes = excludedAttributes.join(',');
  return params;
}

export { listResponse };
