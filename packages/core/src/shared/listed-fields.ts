/**
 * A resource's fields are declared once, in the zod schema of what the API returns. A field that
 * lists may filter, bound, sort or search by carries those traits in the same line
 * (`listed(z.string(), { filter: true, sort: true })`); the list parameters (ListSpec), the report
 * catalogue and the storage adapter's columns, records and SQL all derive from that schema
 * (docs/development.md, "Adding a field").
 */
import { z } from 'zod';
import type { FilterDef, ListSpec, RangeKind } from './list-query.ts';

export interface ListTraits {
  /**
   * `?<field>=` selects rows whose field equals the value: an enum or boolean field takes its
   * values, a reference (an object with `public_id`) takes the referenced public id, text takes any
   * text. `'multiple'` accepts a comma-separated list of values, any of which may match.
   */
  filter?: true | 'multiple';
  /** `<field>__gte` and `<field>__lte` bound the field; a date compares days, a datetime instants */
  range?: RangeKind;
  /** `ordering` may name the field */
  sort?: true;
  /** `search` looks for its text in the field */
  search?: true;
}

const traitsRegistry = z.registry<ListTraits>();

/**
 * The field `schema` with list traits. The schema is cloned first: a shared schema (a role enum,
 * a date string) must not carry one resource's traits into every other schema that uses it.
 */
export function listed<T extends z.ZodType>(schema: T, traits: ListTraits): T {
  const copy = schema.clone() as T;
  traitsRegistry.add(copy, traits);
  return copy;
}

/** The list traits of a field schema, seen through `.nullable()`/`.optional()`. */
export function listTraitsOf(schema: z.ZodType): ListTraits | undefined {
  let current: z.ZodType = schema;
  for (;;) {
    const traits = traitsRegistry.get(current);
    if (traits) return traits;
    if (current instanceof z.ZodNullable || current instanceof z.ZodOptional) current = current.unwrap() as z.ZodType;
    else return undefined;
  }
}

/** The schema inside `.nullable()`/`.optional()` wrappers, and whether there were any. */
export function unwrapField(schema: z.ZodType): { inner: z.ZodType; nullable: boolean } {
  let inner = schema;
  let nullable = false;
  while (inner instanceof z.ZodNullable || inner instanceof z.ZodOptional) {
    nullable = true;
    inner = inner.unwrap() as z.ZodType;
  }
  return { inner, nullable };
}

/** A field that names another resource: an object carrying its `public_id`. */
export const isReference = (schema: z.ZodType): schema is z.ZodObject => schema instanceof z.ZodObject && 'public_id' in schema.shape;

function filterOf(name: string, schema: z.ZodType, multiple: boolean): FilterDef {
  const { inner } = unwrapField(schema);
  if (inner instanceof z.ZodEnum) return { kind: 'enum', values: inner.options.map(String), ...(multiple ? { multiple } : {}) };
  if (inner instanceof z.ZodBoolean) return { kind: 'boolean' };
  if (isReference(inner)) return { kind: 'uuid', ...(multiple ? { multiple } : {}) };
  if (inner instanceof z.ZodNumber) return { kind: 'integer' };
  if (inner instanceof z.ZodString) return { kind: 'string' };
  throw new Error(`listed field '${name}': no query-string filter for its type`);
}

export interface ListSpecParts {
  /** filters that are not a field of the shape (membership of a group, a tag, a derived flag) */
  filters?: Record<string, FilterDef>;
  /** bounds on values that are not fields of the shape */
  ranges?: Record<string, RangeKind>;
  /** sort keys that are not fields of the shape */
  ordering?: readonly string[];
  defaultOrdering: readonly string[];
}

/** The list parameters of a resource: its listed fields' traits, plus what `parts` adds. */
export function listSpecOf(shape: z.ZodObject, parts: ListSpecParts): ListSpec {
  const filters: Record<string, FilterDef> = {};
  const ranges: Record<string, RangeKind> = {};
  const ordering: string[] = [];
  let search = false;
  for (const [name, field] of Object.entries(shape.shape as Record<string, z.ZodType>)) {
    const traits = listTraitsOf(field);
    if (!traits) continue;
    if (traits.filter) filters[name] = filterOf(name, field, traits.filter === 'multiple');
    if (traits.range) ranges[name] = traits.range;
    if (traits.sort) ordering.push(name);
    if (traits.search) search = true;
  }
  return {
    filters: { ...filters, ...parts.filters },
    ranges: { ...ranges, ...parts.ranges },
    ...(search ? { search } : {}),
    ordering: [...ordering, ...(parts.ordering ?? [])],
    defaultOrdering: parts.defaultOrdering,
  };
}

/** The fields `search` looks in. */
export const searchableFields = (shape: z.ZodObject): string[] =>
  Object.entries(shape.shape as Record<string, z.ZodType>)
    .filter(([, field]) => listTraitsOf(field)?.search)
    .map(([name]) => name);

/** How a field is stored and read back, as far as an adapter needs to know. */
export type FieldKind = 'text' | 'boolean' | 'number' | 'reference' | 'list' | 'object';

export interface DescribedField {
  name: string;
  kind: FieldKind;
  nullable: boolean;
  traits?: ListTraits;
  /** a reference's own fields (`manager` → public_id, name, email) */
  fields?: DescribedField[];
}

function kindOf(inner: z.ZodType): FieldKind {
  if (inner instanceof z.ZodBoolean) return 'boolean';
  if (inner instanceof z.ZodNumber) return 'number';
  if (isReference(inner)) return 'reference';
  if (inner instanceof z.ZodArray) return 'list';
  if (inner instanceof z.ZodObject) return 'object';
  return 'text';
}

/** The fields of a resource schema, for a storage adapter to derive its columns and SQL from. */
export function describeFields(shape: z.ZodObject): DescribedField[] {
  return Object.entries(shape.shape as Record<string, z.ZodType>).map(([name, schema]) => {
    const { inner, nullable } = unwrapField(schema);
    const kind = kindOf(inner);
    const traits = listTraitsOf(schema);
    return {
      name,
      kind,
      nullable,
      ...(traits ? { traits } : {}),
      ...(kind === 'reference' ? { fields: describeFields(inner as z.ZodObject) } : {}),
    };
  });
}
