/**
 * The document's `components.schemas`: every request and JSON response schema of the operations,
 * converted once by zod (requests as they are parsed, `io: 'input'`; responses as they are shaped,
 * `io: 'output'`), each under its name, with a schema nested in another named one written as a
 * `$ref` to it. Operations refer to them by `$ref` too.
 */
import { apiSchemaNames } from '@lectern/core';
import { z } from 'zod';
import type { OperationSpec } from '../operation-spec.ts';

type Json = Record<string, unknown>;

export interface SchemaUse {
  request(schema: z.ZodType, operationId: string, mediaType?: string): Json;
  response(schema: z.ZodType, operationId: string, mediaType: string): Json;
  /** every named schema, converted (call after every request/response was asked for) */
  components(): Record<string, Json>;
}

const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);
const refTo = (name: string) => `#/components/schemas/${name}`;
// zod writes the keys a stand-alone JSON Schema has; a component is embedded in the document
const embedded = ({ $schema: _schema, $id: _id, ...schema }: Json) => schema;

/**
 * A request field's default, said in its description rather than as `default`: openapi-typescript
 * (by default) types a property with a `default` as always present, which would make a client send
 * every defaulted field of a request body.
 */
function defaultInWords({ jsonSchema }: { jsonSchema: Json }): void {
  if (!('default' in jsonSchema)) return;
  // a `const` says more than the default (a confirmation that must be sent)
  if ('const' in jsonSchema) {
    delete jsonSchema.default;
    return;
  }
  const said = `Default: \`${JSON.stringify(jsonSchema.default)}\`.`;
  jsonSchema.description = typeof jsonSchema.description === 'string' ? `${jsonSchema.description} ${said}` : said;
  delete jsonSchema.default;
}

/**
 * The formats of the fields every representation shares, which the views declare as plain strings:
 * public ids are UUIDs, `created`/`modified`/`date_joined` instants (written by the server, always
 * ISO-8601 in UTC). Black-box tests check every response against them. Only a representation's own
 * fields: a nested `public_id` may name another kind of thing (an audit entry's webhook endpoint).
 */
const sharedFieldFormats: Record<string, string> = {
  public_id: 'uuid',
  created: 'date-time',
  modified: 'date-time',
  date_joined: 'date-time',
};

function sharedFormat({ jsonSchema, path }: { jsonSchema: Json; path: (string | number)[] }): void {
  const format = path.length === 2 && path[0] === 'properties' ? sharedFieldFormats[String(path[1])] : undefined;
  if (format && jsonSchema.type === 'string' && !('format' in jsonSchema)) jsonSchema.format = format;
}

/** The operations' schemas, named: `described` fixes the names before any is converted. */
export function componentSchemas(described: Array<{ operationId: string; spec: OperationSpec }>): SchemaUse {
  const inputs = z.registry<{ id: string }>();
  const outputs = z.registry<{ id: string }>();
  const taken = new Map<string, z.ZodType>();
  const nameOf = (schema: z.ZodType, fallback: string, registry: typeof inputs, other: typeof inputs, otherSuffix: string) => {
    const existing = registry.get(schema);
    if (existing) return existing.id;
    let name = apiSchemaNames.get(schema)?.id ?? fallback;
    // the same schema read both ways (rare) gets a second name for its other reading
    if (other.has(schema)) name = `${name}${otherSuffix}`;
    if (taken.has(name) && taken.get(name) !== schema) throw new Error(`two schemas are both named ${name} in the OpenAPI document`);
    taken.set(name, schema);
    registry.add(schema, { id: name });
    return name;
  };
  const isJson = (mediaType: string) => mediaType === 'application/json';
  for (const { operationId, spec } of described) {
    if (spec.request && !spec.requestMediaType) nameOf(spec.request, `${pascal(operationId)}Request`, inputs, outputs, 'Input');
    const { schema, mediaType = 'application/json' } = spec.response;
    if (schema && isJson(mediaType)) nameOf(schema, `${pascal(operationId)}Response`, outputs, inputs, 'Output');
  }
  const convert = (registry: typeof inputs, io: 'input' | 'output') =>
    z.toJSONSchema(registry, {
      io,
      unrepresentable: 'any',
      target: 'draft-2020-12',
      uri: refTo,
      override: io === 'input' ? defaultInWords : sharedFormat,
    }).schemas;
  return {
    request: (schema, _operationId, mediaType) =>
      mediaType
        ? embedded(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json)
        : { $ref: refTo(inputs.get(schema)!.id) },
    response: (schema, _operationId, mediaType) =>
      isJson(mediaType)
        ? { $ref: refTo(outputs.get(schema)!.id) }
        : embedded(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' }) as Json),
    components: () => {
      const all = { ...convert(inputs, 'input'), ...convert(outputs, 'output') };
      return Object.fromEntries(
        Object.entries(all)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, schema]) => [name, embedded(schema as Json)]),
      );
    },
  };
}
