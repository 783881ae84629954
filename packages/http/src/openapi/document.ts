/**
 * The OpenAPI 3.1 document of the HTTP API, built from the registered routes and their
 * descriptions (operations.ts) with zod 4's own JSON Schema conversion: request bodies from the
 * schemas the services validate with, responses from the schemas that shape the representations.
 */
import { allEventTypes, API_VERSION, errorCodes, type Scope } from '@lectern/core';
import { z } from 'zod';
import { errorStatus } from '../error-response.ts';
import type { RouteTable } from '../router.ts';
import { operations, probeOperations, type OperationSpec } from './operations.ts';

type Json = Record<string, unknown>;
export type OpenApiDocument = Json & { openapi: string; paths: Record<string, Record<string, Json>> };

const requestSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
const responseSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' });
// zod's $schema key is not part of an OpenAPI Schema Object's vocabulary for embedded schemas
const embedded = ({ $schema: _ignored, ...schema }: Json) => schema;

const header = (description: string, type = 'string') => ({ description, schema: { type } });
const commonHeaders = {
  'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

const pageEnvelope = (item: Json) => ({
  type: 'object',
  required: ['data', 'meta'],
  properties: {
    data: { type: 'array', items: item },
    meta: {
      type: 'object',
      required: ['page', 'page_size', 'total_count'],
      properties: { page: { type: 'integer' }, page_size: { type: 'integer' }, total_count: { type: 'integer' } },
    },
  },
});

/** `/api/v2/users/:id` → `/api/v2/users/{id}` */
export const openApiPath = (pattern: string) => pattern.replace(/:([A-Za-z_]+)/g, '{$1}');

const headersOf = (spec: OperationSpec) => (spec.rateLimited === false ? { 'X-Request-Id': commonHeaders['X-Request-Id'] } : commonHeaders);

function errorResponses(spec: OperationSpec, method: string): Record<string, Json> {
  const ref = (description: string, extra: Json = {}) => ({
    description,
    headers: { ...headersOf(spec), ...extra },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  });
  const responses: Record<string, Json> = {
    '400': ref('Malformed request (for example a body that is not a JSON object)'),
    '404': ref('No such resource, or not visible to the caller'),
    '429': ref('Rate limit exceeded', { 'Retry-After': header('Seconds until the window resets', 'integer') }),
    '500': ref('Unexpected error'),
    '503': ref('The database is busy; retry shortly'),
  };
  if (spec.scope) {
    responses['401'] = ref('Missing or invalid bearer token');
    responses['403'] = ref('The token lacks the scope or the role');
  }
  if (method !== 'get') {
    responses['409'] = ref('Conflicts with the current state');
    responses['412'] = ref('If-Match does not match the current ETag');
    responses['413'] = ref('The request body exceeds 1 MiB');
    responses['422'] = ref('The body failed validation (field_errors name each field)');
  } else {
    responses['422'] = ref('A query parameter failed validation');
  }
  return responses;
}

function operationObject(method: string, pattern: string, spec: OperationSpec): Json {
  const parameters: Json[] = [...pattern.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (spec.response.list)
    parameters.push(
      { $ref: '#/components/parameters/page' },
      { $ref: '#/components/parameters/page_size' },
      { $ref: '#/components/parameters/ordering' },
    );
  if (spec.response.etag && method === 'get') parameters.push({ name: 'If-None-Match', in: 'header', schema: { type: 'string' } });
  if (spec.response.etag && method !== 'get') parameters.push({ name: 'If-Match', in: 'header', schema: { type: 'string' } });

  const { status, schema, list, etag, alsoStatuses = [], mediaType = 'application/json' } = spec.response;
  const body = schema ? embedded(responseSchema(schema)) : undefined;
  const success: Json = {
    description: spec.summary,
    headers: { ...headersOf(spec), ...(etag ? { ETag: { $ref: '#/components/headers/ETag' } } : {}) },
    ...(body ? { content: { [mediaType]: { schema: list ? pageEnvelope(body) : body } } } : {}),
  };
  const responses: Record<string, Json> = { [String(status)]: success, ...errorResponses(spec, method) };
  for (const other of alsoStatuses) responses[String(other)] = success;
  // a create that may return the existing record answers 200 with the same shape
  if (status === 201 && method === 'post') responses['200'] = success;
  if (etag && method === 'get') responses['304'] = { description: 'Not modified (If-None-Match)', headers: headersOf(spec) };

  return {
    operationId: `${method}${pattern.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: spec.summary,
    tags: [spec.tag],
    ...(spec.scope === null
      ? { security: [] }
      : spec.scope === 'token'
        ? { security: [{ bearer: [] }], description: 'Any valid token.' }
        : { security: [{ bearer: [spec.scope] }], description: `Requires the \`${spec.scope}\` scope.` }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.request
      ? { requestBody: { required: true, content: { 'application/json': { schema: embedded(requestSchema(spec.request)) } } } }
      : {}),
    responses,
  };
}

/** Routes that are registered but not described: the test lists them, the document refuses them. */
export function undescribedRoutes(routes: RouteTable): string[] {
  return routes
    .registered()
    .map(({ method, pattern }) => `${method} ${pattern}`)
    .filter((key) => !operations.has(key));
}

export function buildOpenApiDocument(routes: RouteTable, version: string): OpenApiDocument {
  const missing = undescribedRoutes(routes);
  if (missing.length > 0) throw new Error(`routes without an OpenAPI description: ${missing.join(', ')}`);
  const paths: OpenApiDocument['paths'] = {};
  const described = [
    ...routes.registered().map(({ method, pattern }) => [method, pattern, operations.get(`${method} ${pattern}`)!] as const),
    ...[...probeOperations].map(([key, spec]) => [...(key.split(' ') as [string, string]), spec] as const),
  ];
  for (const [method, pattern, spec] of described) {
    (paths[openApiPath(pattern)] ??= {})[method.toLowerCase()] = operationObject(method.toLowerCase(), pattern, spec);
  }
  const scopes = [...new Set([...operations.values()].map((o) => o.scope).filter((s): s is Scope => s !== null && s !== 'token'))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lectern — Learning Platform Public API v2',
      version,
      license: { name: 'MIT', identifier: 'MIT' },
      description: 'Every route Lectern serves. Errors share one envelope; lists share one page envelope.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    paths,
    webhooks: webhookDescriptions(),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: `API token; scopes: ${scopes.join(', ')}` },
      },
      headers: {
        'X-Request-Id': header('The request id (echoed when the client sent a valid one)'),
        'X-RateLimit-Limit': header('Requests allowed per window', 'integer'),
        'X-RateLimit-Remaining': header('Requests left in this window', 'integer'),
        'X-RateLimit-Reset': header('Seconds until the window resets', 'integer'),
        ETag: header('The representation’s entity tag, for If-Match and If-None-Match'),
      },
      parameters: {
        page: { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
        page_size: { name: 'page_size', in: 'query', schema: { type: 'integer', minimum: 1 } },
        ordering: { name: 'ordering', in: 'query', schema: { type: 'string' }, description: 'A field name, `-` first for descending' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message', 'request_id'],
              properties: {
                code: { type: 'string', enum: errorCodes.filter((code) => code in errorStatus) },
                message: { type: 'string' },
                request_id: { type: 'string' },
                field_errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
                non_field_errors: { type: 'array', items: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  };
}

function webhookDescriptions(): Record<string, Json> {
  return Object.fromEntries(
    allEventTypes.map((type) => [
      type,
      {
        post: {
          summary: `The ${type} event, signed per Standard Webhooks`,
          parameters: ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => ({
            name,
            in: 'header',
            required: true,
            schema: { type: 'string' },
          })),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id', 'type', 'api_version', 'created_at', 'data'],
                  properties: {
                    id: { type: 'string', description: 'msg_…, the same on every retry: deduplicate on it' },
                    type: { const: type },
                    api_version: { const: API_VERSION },
                    created_at: { type: 'string', format: 'date-time' },
                    data: { type: 'object', required: ['object'], properties: { object: { type: 'object' } } },
                  },
                },
              },
            },
          },
          responses: { '2XX': { description: 'Delivered; anything else is retried' } },
        },
      },
    ]),
  );
}
