/**
 * A resource's row → record function (`{ internal, view }`), written out once per resource from
 * its fields (listing/resource-definition.ts selects the columns under these aliases).
 */
import type { DescribedField } from '@lectern/core';
import { toBool } from './list-builder.ts';

/** A row alias for an internal key, apart from the view's names (a subscription's view has its own `id`). */
export const internalAlias = (key: string) => `__${key}`;

/** A row alias for a reference's sub-field: `manager.email` is selected as `manager__email`. */
export const subAlias = (field: string, sub: string) => `${field}__${sub}`;

/**
 * The JavaScript expression reading a column as the view's type: null when absent, SQLite's 0/1
 * as a boolean, a count a driver returns as text as a number, a JSON column parsed.
 */
function readExpression(field: DescribedField, column: string, json: boolean): string {
  const value = `row[${JSON.stringify(column)}]`;
  const read = json
    ? `(typeof v === 'string' ? parseJson(v) : v)`
    : field.kind === 'boolean'
      ? 'toBool(v)'
      : field.kind === 'number'
        ? 'Number(v)'
        : 'v';
  return read === 'v' ? `(v = ${value}) ?? null` : `(v = ${value}) === null || v === undefined ? null : ${read}`;
}

export interface RecordColumn {
  field: DescribedField;
  json: boolean;
  /** a reference's fields, selected as `<field>__<sub>` */
  subs: DescribedField[] | undefined;
}

/**
 * The function turning a row into `{ internal, view }`, written out for the resource's columns:
 * every list row and every lookup goes through it, and a loop over the fields that sets
 * properties by computed name cost ten times more than an object literal with the names in place.
 * The names are the schema's field names (code, never data), written as JSON strings all the same.
 */
export function recordBuilder<Internal, View>(
  internalKeys: readonly string[],
  columns: readonly RecordColumn[],
): (row: Record<string, unknown>) => { internal: Internal; view: View } {
  const key = JSON.stringify;
  const internal = internalKeys.map((name) => `${key(name)}: row[${key(internalAlias(name))}]`);
  const view = columns.map(({ field, json, subs }) => {
    if (!subs) return `${key(field.name)}: ${readExpression(field, field.name, json)}`;
    const referenced = subs.map((sub) => `${key(sub.name)}: ${readExpression(sub, subAlias(field.name, sub.name), false)}`);
    // a reference without its row (a user without a manager) is null
    return `${key(field.name)}: row[${key(subAlias(field.name, 'public_id'))}] === null ? null : { ${referenced.join(', ')} }`;
  });
  const body = `return (row) => { let v; return { internal: { ${internal.join(', ')} }, view: { ${view.join(', ')} } }; };`;
  const make = new Function('toBool', 'parseJson', body) as (
    bool: typeof toBool,
    parseJson: typeof JSON.parse,
  ) => (row: Record<string, unknown>) => { internal: Internal; view: View };
  return make(toBool, JSON.parse);
}
