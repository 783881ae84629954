/**
 * fast-check arbitraries for the values a JSON Schema of the OpenAPI document allows: request
 * bodies, query and path parameters. Strings stay short and plain (letters and digits) unless a
 * format says otherwise, so a generated value is valid by the schema and says nothing more.
 * Public ids come from `pool` (real resources) most of the time, so references resolve.
 */
import fc from 'fast-check';
import { resolveRef } from '../helpers/openapi-validators.ts';

type Json = Record<string, any>;

export interface GenerateContext {
  doc: Json;
  /**
   * public ids of seeded resources for a field (`user_id`, `groups`…; undefined where the name says
   * nothing): a `uuid` is one of them, or now and then a random one
   */
  pool: (field: string | undefined) => string[];
}

const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const word = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: Math.max(min, 1), maxLength: Math.max(max, 1) });
let unique = 0;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const dateArb = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true });

function stringArb(schema: Json, ctx: GenerateContext, field: string | undefined): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 16, Math.max(min, 16));
  switch (schema.format) {
    case 'uuid':
      return fc.oneof(
        {
          weight: 6,
          arbitrary: fc.constant(null).chain(() => {
            // seeded ids that are UUIDs: locations have numbers, webhook endpoints ep_ ids
            const pool = ctx.pool(field).filter((id) => uuidPattern.test(id));
            return pool.length > 0 ? fc.constantFrom(...pool) : fc.uuid();
          }),
        },
        { weight: 1, arbitrary: fc.uuid() },
      );
    case 'email':
      // unique: an email taken by an earlier request would be a conflict, not a contract failure
      return word(1, 8).map((local) => `${local.toLowerCase()}.${unique++}@example.com`);
    case 'date-time':
      return dateArb.map((date) => date.toISOString());
    case 'date':
      return dateArb.map((date) => date.toISOString().slice(0, 10));
    case 'uri':
      // the server under test takes private webhook targets: nothing leaves the machine
      return word(1, 8).map((path) => `http://127.0.0.1:9/${path}`);
  }
  if (schema.anyOf)
    return fc.oneof(
      ...schema.anyOf.map((member: Json) => arbitraryOf({ type: 'string', ...member, anyOf: undefined }, ctx, field)),
    ) as fc.Arbitrary<string>;
  const pattern: string | undefined = schema.pattern;
  const prefixed = pattern && /^\^([a-z]+_)\[0-9A-HJKMNP-TV-Z\]\{26\}\$$/.exec(pattern);
  // an ISO-8601 duration of whole minutes or hours
  if (pattern?.startsWith('^PT')) return fc.integer({ min: 1, max: 600 }).map((minutes) => `PT${minutes}M`);
  if (prefixed) return fc.string({ unit: fc.constantFrom(...crockford), minLength: 26, maxLength: 26 }).map((id) => prefixed[1] + id);
  if (pattern && !['\\S', '^[^,]*[^,\\s][^,]*$'].includes(pattern)) throw new Error(`no generator for the pattern ${pattern}`);
  if (min === 0 && !pattern) return fc.oneof(fc.constant(''), word(1, max));
  return word(min, max);
}

/** Values valid by `schema`; throws for a schema the generator does not know (so it is extended, not skipped). */
export function arbitraryOf(schema: Json, ctx: GenerateContext, field?: string): fc.Arbitrary<unknown> {
  schema = resolveRef(ctx.doc, schema);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.anyOf && schema.type === undefined) return fc.oneof(...schema.anyOf.map((member: Json) => arbitraryOf(member, ctx, field)));
  if (schema.oneOf) return fc.oneof(...schema.oneOf.map((member: Json) => arbitraryOf(member, ctx, field)));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type: string) => arbitraryOf({ ...schema, type }, ctx, field)));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
      const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : Math.max(min, 0) + 1000);
      return fc.integer({ min, max });
    }
    case 'string':
      return stringArb(schema, ctx, field);
    case 'array': {
      const min = schema.minItems ?? 0;
      const max = Math.min(schema.maxItems ?? min + 3, min + 3);
      const items = arbitraryOf(schema.items ?? {}, ctx, field);
      return schema.uniqueItems
        ? fc.uniqueArray(items, { minLength: min, maxLength: max })
        : fc.array(items, { minLength: min, maxLength: max });
    }
    case 'object':
    case undefined: {
      // a property whose schema is `not: {}` is one the operation refuses (named to say why): left out
      const properties: Record<string, Json> = Object.fromEntries(
        Object.entries<Json>(schema.properties ?? {}).filter(([, property]) => !('not' in resolveRef(ctx.doc, property))),
      );
      if (schema.type === undefined && Object.keys(properties).length === 0) return fc.constant({});
      const required: string[] = (schema.required ?? []).filter((name: string) => name in properties);
      return fc.record(Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, arbitraryOf(property, ctx, name)])), {
        requiredKeys: required,
      });
    }
  }
  throw new Error(`no generator for ${JSON.stringify(schema).slice(0, 200)}`);
}

/** A value of another JSON type than any `schema` allows, or undefined when every type is allowed. */
export function wrongTypeValue(schema: Json, doc: Json): unknown {
  const resolved = resolveRef(doc, schema);
  const types = new Set<string>();
  const collect = (node: Json) => {
    const s = resolveRef(doc, node);
    if (s.anyOf) s.anyOf.forEach(collect);
    else if (s.oneOf) s.oneOf.forEach(collect);
    else if (Array.isArray(s.type)) s.type.forEach((t: string) => types.add(t));
    else if (s.type) types.add(s.type);
    else if ('const' in s) types.add(typeof s.const === 'string' ? 'string' : 'other');
    else if (s.enum) types.add('string');
    else types.add('any');
  };
  collect(resolved);
  if (types.has('any')) return undefined;
  if (!types.has('object')) return { unexpected: true };
  if (!types.has('integer') && !types.has('number')) return 12345;
  if (!types.has('string')) return 'not-of-this-type';
  if (!types.has('boolean')) return true;
  return undefined;
}
