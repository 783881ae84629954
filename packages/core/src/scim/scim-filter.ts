/**
 * SCIM filters (RFC 7644 §3.4.2.2) as the validated RQL tree the list machinery already compiles to
 * SQL (storage's rql-to-sql), so a filter is a WHERE clause of the list query, counted and paged by
 * the database like a saved report's. scim2-parse-filter reads the text; this module only maps its
 * tree onto the fields each resource type offers, refusing what it cannot express.
 */
import { parse, type Filter } from 'scim2-parse-filter';
import type { RqlFilter, RqlScalar, RqlTest } from '../reports/rql/rql-ast.ts';
import { foldCase } from '../shared/fold-case.ts';
import { invalidFilter } from './scim-error.ts';

export type ScimAttributeType = 'string' | 'boolean' | 'datetime';

/** Where a filterable SCIM attribute lives among the list's report fields. */
export interface ScimFilterAttribute {
  field: string;
  type: ScimAttributeType;
  /** RFC 7643 `caseExact`: false compares ignoring case */
  caseExact: boolean;
  /** a field holding foldCase of `field`, indexed: `eq` on an attribute that ignores case compares it */
  foldedField?: string;
  /** the field is a list (a group's members): a test holds when some element passes it */
  multi?: boolean;
}

/** Keyed by the attribute path in lower case (attribute names ignore case, RFC 7643 §2.1). */
export type ScimFilterAttributes = Readonly<Record<string, ScimFilterAttribute>>;

export const MAX_FILTER_LENGTH = 4096;

export function scimFilterToRql(text: string, attributes: ScimFilterAttributes): RqlFilter {
  if (text.length > MAX_FILTER_LENGTH) throw invalidFilter(`The filter is longer than ${MAX_FILTER_LENGTH} characters.`);
  let tree: Filter;
  try {
    tree = parse(text);
  } catch (error) {
    throw invalidFilter(`The filter is not valid SCIM filter syntax: ${(error as Error).message}`);
  }
  return translate(tree, attributes, '');
}

function translate(node: Filter, attributes: ScimFilterAttributes, prefix: string): RqlFilter {
  switch (node.op) {
    case 'and':
    case 'or':
      return { kind: node.op, children: node.filters.map((child) => translate(child, attributes, prefix)) };
    case 'not':
      return { kind: 'not', child: translate(node.filter, attributes, prefix) };
    case '[]':
      // `emails[value eq "x"]` tests the sub-attributes of `emails`
      if (prefix) throw invalidFilter('A value filter cannot contain another.');
      return translate(node.valFilter, attributes, `${node.attrPath}.`);
    case 'pr':
      return present(attributeOf(attributes, prefix + node.attrPath));
    default:
      return compare(attributeOf(attributes, prefix + node.attrPath), node.op, node.compValue);
  }
}

function attributeOf(attributes: ScimFilterAttributes, path: string): ScimFilterAttribute & { path: string } {
  const key = path.toLowerCase();
  const attribute = attributes[key] ?? attributes[key.replace(/^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/, '')];
  if (!attribute) throw invalidFilter(`Filtering on '${path}' is not supported.`);
  return { ...attribute, path };
}

const leaf = (attribute: ScimFilterAttribute, test: RqlTest, field = attribute.field): RqlFilter =>
  attribute.multi ? { kind: 'some', field, test } : { kind: 'field', field, test };

const anything = { op: 'like', pattern: { segments: ['', ''] }, caseInsensitive: false } as const;

function present(attribute: ScimFilterAttribute): RqlFilter {
  return attribute.multi ? leaf(attribute, anything) : { kind: 'not', child: leaf(attribute, { op: 'null' }) };
}

type Comparison = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'lt' | 'ge' | 'le';

function compare(attribute: ScimFilterAttribute & { path: string }, op: Comparison, raw: unknown): RqlFilter {
  if (raw === null) {
    if (op === 'eq') return leaf(attribute, { op: 'null' });
    if (op === 'ne') return present(attribute);
    throw invalidFilter(`'${op}' cannot compare '${attribute.path}' with null.`);
  }
  const value = valueOf(attribute, raw);
  if (op === 'ne') return { kind: 'not', child: compare(attribute, 'eq', raw) };
  if (attribute.type === 'boolean' && op !== 'eq') throw invalidFilter(`'${attribute.path}' is a boolean: only eq, ne and pr apply.`);
  if (op === 'eq') {
    if (attribute.caseExact || typeof value !== 'string') return leaf(attribute, { op: 'eq', value });
    if (attribute.foldedField) return leaf(attribute, { op: 'eq', value: foldCase(value) }, attribute.foldedField);
    return leaf(attribute, like([value], attribute));
  }
  if (op === 'co' || op === 'sw' || op === 'ew') {
    if (attribute.type !== 'string') throw invalidFilter(`'${op}' applies to strings; '${attribute.path}' is not one.`);
    const text = value as string;
    // an empty part would match anything: the attribute need only be present
    if (text === '') return present(attribute);
    return leaf(attribute, like(op === 'co' ? ['', text, ''] : op === 'sw' ? [text, ''] : ['', text], attribute));
  }
  return leaf(attribute, { op, value });
}

const like = (segments: string[], attribute: ScimFilterAttribute): RqlTest => ({
  op: 'like',
  pattern: { segments },
  caseInsensitive: !attribute.caseExact,
});

function valueOf(attribute: ScimFilterAttribute & { path: string }, raw: unknown): RqlScalar {
  switch (attribute.type) {
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      // identity providers send booleans as strings too ("True")
      if (typeof raw === 'string' && /^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
      throw invalidFilter(`'${attribute.path}' is a boolean; compare it with true or false.`);
    case 'datetime': {
      const time = typeof raw === 'string' ? Date.parse(raw) : Number.NaN;
      if (Number.isNaN(time))
        throw invalidFilter(`'${attribute.path}' is a date and time; compare it with one such as "2026-01-31T00:00:00Z".`);
      return new Date(time).toISOString();
    }
    default:
      if (typeof raw !== 'string') throw invalidFilter(`'${attribute.path}' is a string; compare it with a quoted value.`);
      return raw;
  }
}
