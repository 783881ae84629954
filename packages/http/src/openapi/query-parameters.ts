/**
 * An operation's query parameters, written from the ListSpec its service parses the query string
 * with (core/shared/list-query.ts): each filter with its type or values, `<field>__gte`/`__lte`
 * bounds, `search` and `ordering` as the terms it accepts, so a generated client types them and
 * the document cannot list a parameter the server ignores or miss one it reads.
 */
import { MAX_INTEGER_ID, type FilterDef, type ListSpec, type RangeKind } from '@lectern/core';
import type { OperationSpec } from '../operation-spec.ts';

type Json = Record<string, unknown>;

/** several values, comma-separated (`?status=active,completed`) */
const commaSeparated = (items: Json, extra: Json = {}) => ({
  schema: { type: 'array', items, minItems: 1, ...extra },
  style: 'form',
  explode: false,
});

/** a value that is not only spaces or commas: the parser trims values and drops empty ones */
const listValue = '^[^,]*[^,\\s][^,]*$';

function filterParameter(def: FilterDef): Json {
  switch (def.kind) {
    case 'string':
      return { schema: { type: 'string', ...(def.maxLength !== undefined ? { maxLength: def.maxLength } : {}) } };
    case 'boolean':
      return { schema: { type: 'boolean' } };
    case 'integer':
      return { schema: { type: 'integer', minimum: -MAX_INTEGER_ID, maximum: MAX_INTEGER_ID } };
    case 'uuid':
      return def.multiple ? commaSeparated({ type: 'string', format: 'uuid' }) : { schema: { type: 'string', format: 'uuid' } };
    case 'enum':
      return def.multiple
        ? commaSeparated({ type: 'string', enum: [...def.values] })
        : { schema: { type: 'string', enum: [...def.values] } };
    case 'strings':
      return commaSeparated(
        { type: 'string', pattern: listValue, ...(def.maxLength !== undefined ? { maxLength: def.maxLength } : {}) },
        def.maxValues !== undefined ? { maxItems: def.maxValues } : {},
      );
  }
}

const filterDescription = (name: string, def: FilterDef) =>
  def.kind === 'uuid'
    ? `Only items whose \`${name}\` is the one with this public id${def.multiple ? ' (several, comma-separated: any of them)' : ''}`
    : `Only items whose \`${name}\` is this value${'multiple' in def && def.multiple ? ' (several, comma-separated: any of them)' : ''}`;

const rangeSchema = (kind: RangeKind): Json =>
  kind === 'date'
    ? { type: 'string', format: 'date' }
    : // a date alone bounds by the whole day
      { type: 'string', anyOf: [{ format: 'date-time' }, { format: 'date' }] };

const query = (name: string, parameter: Json, description: string): Json => ({ name, in: 'query', description, ...parameter });

/** The `ordering` terms a list accepts: each sortable field, ascending or with `-` descending. */
export const orderingTerms = (spec: ListSpec) => spec.ordering.flatMap((field) => [field, `-${field}`]);

export function queryParameters(spec: OperationSpec): Json[] {
  const parameters: Json[] = [];
  const list = spec.query?.list;
  if (spec.response.list || spec.query?.paging) {
    parameters.push({ $ref: '#/components/parameters/page' }, { $ref: '#/components/parameters/page_size' });
  }
  // every list exports its rows (http/src/export/list-export.ts)
  if (spec.response.list) parameters.push({ $ref: '#/components/parameters/format' });
  if (list && !spec.query?.paging) {
    for (const [name, def] of Object.entries(list.filters))
      parameters.push(query(name, filterParameter(def), filterDescription(name, def)));
    for (const [field, kind] of Object.entries(list.ranges ?? {})) {
      parameters.push(
        query(`${field}__gte`, { schema: rangeSchema(kind) }, `Only items whose \`${field}\` is on or after this ${kind}`),
        query(`${field}__lte`, { schema: rangeSchema(kind) }, `Only items whose \`${field}\` is on or before this ${kind}`),
      );
    }
    if (list.search)
      parameters.push(query('search', { schema: { type: 'string' } }, 'Only items containing this text in a searched field'));
    if (list.ordering.length > 0) {
      parameters.push(
        query(
          'ordering',
          { schema: { type: 'string', enum: orderingTerms(list) } },
          `The sort: a sortable field, \`-\` first for descending (default \`${list.defaultOrdering.join(',')}\`); several may be comma-separated`,
        ),
      );
    }
  }
  for (const [name, { schema, description, required }] of Object.entries(spec.query?.extra ?? {})) {
    parameters.push(query(name, { schema, ...(required ? { required } : {}) }, description));
  }
  return parameters;
}
