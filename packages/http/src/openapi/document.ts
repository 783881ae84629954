/**
 * The OpenAPI 3.1 document of the HTTP API, built from the routes and what each declares where it
 * is registered (operation-spec.ts, routes/*.ts) with zod 4's own JSON Schema conversion: request bodies from the
 * schemas the services validate with, responses from the schemas that shape the representations,
 * each a named component (named where declared: core's apiSchemaNames); list parameters from the ListSpec the service parses
 * the query string with (query-parameters.ts).
 */
import { allEventTypes, API_VERSION, DEFAULT_PAGE_SIZE, errorCodes, MAX_PAGE_SIZE, PING_EVENT_TYPE, type Scope } from '@lectern/core';
import { errorStatus } from '../error-response.ts';
import type { RouteTable } from '../router.ts';
import { componentSchemas, type SchemaUse } from './components.ts';
import { schemaExamples } from './examples.ts';
import type { OperationSpec } from '../operation-spec.ts';
import { queryParameters } from './query-parameters.ts';

type Json = Record<string, unknown>;
export type OpenApiDocument = Json & { openapi: string; paths: Record<string, Record<string, Json>> };

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
  properties: { data: { type: 'array', items: item }, meta: { $ref: '#/components/schemas/PageMeta' } },
});

/** `post` `/api/v2/users/{id}/tags` → `postApiV2UsersIdTags` */
export const operationIdOf = (method: string, pattern: string) =>
  `${method}${pattern.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;

/** `/api/v2/users/:id` → `/api/v2/users/{id}` */
export const openApiPath = (pattern: string) => pattern.replace(/:([A-Za-z_]+)/g, '{$1}');

const headersOf = (spec: OperationSpec) => (spec.rateLimited === false ? { 'X-Request-Id': commonHeaders['X-Request-Id'] } : commonHeaders);

/** The error responses, each once in `components.responses` under the name an operation refers to. */
const errorResponseTexts = {
  BadRequest: ['400', 'Malformed request: a body that is not a JSON object, or a query parameter out of its schema'],
  Unauthorized: ['401', 'Missing or invalid bearer token'],
  Forbidden: ['403', 'The token lacks the scope or the role'],
  NotFound: ['404', 'No such resource, or not visible to the caller'],
  Conflict: ['409', 'Conflicts with the current state'],
  PreconditionFailed: ['412', 'If-Match does not match the current ETag'],
  PayloadTooLarge: ['413', 'The request body exceeds 1 MiB'],
  UnsupportedMediaType: ['415', 'The body is not of the media type the route takes, or is compressed (Content-Encoding)'],
  ValidationError: [
    '422',
    'The body failed validation (field_errors name each field), or the request conflicts with a rule of the resource',
  ],
  QueryValidationError: ['422', 'The request conflicts with a rule of the resource'],
  TooManyRequests: ['429', 'Rate limit exceeded'],
  ServerError: ['500', 'Unexpected error'],
  Unavailable: ['503', 'The database is busy; retry shortly'],
} as const;
type ErrorResponseName = keyof typeof errorResponseTexts;

function errorResponse(name: ErrorResponseName, headers: Json): Json {
  return {
    description: errorResponseTexts[name][1],
    headers: { ...headers, ...(name === 'TooManyRequests' ? { 'Retry-After': header('Seconds until the window resets', 'integer') } : {}) },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

function errorResponses(spec: OperationSpec, method: string): Record<string, Json> {
  const names: ErrorResponseName[] = ['BadRequest', 'NotFound', 'TooManyRequests', 'ServerError', 'Unavailable'];
  if (spec.scope) names.push('Unauthorized', 'Forbidden');
  if (method !== 'get') names.push('Conflict', 'PreconditionFailed', 'PayloadTooLarge', 'UnsupportedMediaType', 'ValidationError');
  else names.push('QueryValidationError');
  const responses: Record<string, Json> = {};
  for (const name of names) {
    const status = errorResponseTexts[name][0];
    // probes answer without the rate-limit headers, so they cannot share the components
    responses[status] = spec.rateLimited === false ? errorResponse(name, headersOf(spec)) : { $ref: `#/components/responses/${name}` };
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * A list's other answers, with `format=csv` or `format=ndjson`, told in the 200's description:
 * as media types of its content they would make generated clients (openapi-fetch, the console's)
 * type every list's `data` as a union with text.
 */
const exportNote =
  ' With `format=csv`: `text/csv; charset=utf-8`, a header row then one line per matching row; with `format=ndjson`: `application/x-ndjson`, one item a line. Both stream every row, page and page_size ignored.';

function operationObject(method: string, pattern: string, spec: OperationSpec, schemas: SchemaUse): Json {
  const operationId = operationIdOf(method, pattern);
  const parameters: Json[] = [...pattern.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  parameters.push(...queryParameters(spec));
  if (spec.response.etag && method === 'get') parameters.push({ name: 'If-None-Match', in: 'header', schema: { type: 'string' } });
  if (spec.response.etag && method !== 'get') parameters.push({ name: 'If-Match', in: 'header', schema: { type: 'string' } });

  const { status, schema, list, etag, alsoStatuses = [], mediaType = 'application/json' } = spec.response;
  const body = schema ? schemas.response(schema, operationId, mediaType) : undefined;
  const success: Json = {
    description: list ? `${spec.summary}.${exportNote}` : spec.summary,
    headers: { ...headersOf(spec), ...(etag ? { ETag: { $ref: '#/components/headers/ETag' } } : {}) },
    ...(body ? { content: { [mediaType]: { schema: list ? pageEnvelope(body) : body } } } : {}),
  };
  const responses: Record<string, Json> = { [String(status)]: success, ...errorResponses(spec, method) };
  for (const other of alsoStatuses) responses[String(other)] = success;
  // a create that may return the existing record answers 200 with the same shape
  if (status === 201 && method === 'post') responses['200'] = success;
  if (etag && method === 'get') responses['304'] = { description: 'Not modified (If-None-Match)', headers: headersOf(spec) };

  return {
    operationId,
    summary: spec.summary,
    tags: [spec.tag],
    ...(spec.scope === null
      ? { security: [] }
      : spec.scope === 'token'
        ? { security: [{ bearer: [] }], description: 'Any valid token.' }
        : { security: [{ bearer: [spec.scope] }], description: `Requires the \`${spec.scope}\` scope.` }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.request
      ? {
          requestBody: {
            required: true,
            content: {
              [spec.requestMediaType ?? 'application/json']: { schema: schemas.request(spec.request, operationId, spec.requestMediaType) },
            },
          },
        }
      : {}),
    responses,
  };
}

export function buildOpenApiDocument(routes: RouteTable, version: string): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const described = routes.described();
  const schemas = componentSchemas(
    described.map(({ method, pattern, spec }) => ({ operationId: operationIdOf(method.toLowerCase(), pattern), spec })),
  );
  for (const { method, pattern, spec } of described) {
    (paths[openApiPath(pattern)] ??= {})[method.toLowerCase()] = operationObject(method.toLowerCase(), pattern, spec, schemas);
  }
  const named = schemas.components();
  for (const [name, example] of Object.entries(schemaExamples)) if (named[name]) named[name] = { ...named[name], examples: [example] };
  const scopes = [...new Set(described.map(({ spec }) => spec.scope).filter((s): s is Scope => s !== null && s !== 'token'))].sort();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lectern — Learning Platform Public API v2',
      version,
      license: { name: 'MIT', identifier: 'MIT' },
      description: 'Every route Lectern serves. Errors share one envelope; lists share one page envelope.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    // relative: the document is served by the server it describes, whatever its address
    servers: [{ url: '/', description: 'The server that serves this document' }],
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
      responses: Object.fromEntries(
        (Object.keys(errorResponseTexts) as ErrorResponseName[]).map((name) => [name, errorResponse(name, commonHeaders)]),
      ),
      parameters: {
        page: { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 }, description: 'The page, from 1' },
        page_size: {
          name: 'page_size',
          in: 'query',
          schema: { type: 'integer', minimum: 1 },
          description: `Items per page: ${DEFAULT_PAGE_SIZE} by default; larger values than ${MAX_PAGE_SIZE} are taken as ${MAX_PAGE_SIZE}`,
        },
        format: {
          name: 'format',
          in: 'query',
          schema: { type: 'string', enum: ['json', 'csv', 'ndjson'] },
          description:
            'json (the default): a page. csv or ndjson: every matching row in the list’s order, streamed as text/csv or application/x-ndjson, page and page_size ignored',
        },
      },
      schemas: {
        ...named,
        PageMeta: {
          type: 'object',
          required: ['page', 'page_size', 'total_count'],
          properties: {
            page: { type: 'integer', minimum: 1 },
            page_size: { type: 'integer', minimum: 1 },
            total_count: { type: 'integer', minimum: 0 },
          },
          additionalProperties: false,
        },
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
    [...allEventTypes, PING_EVENT_TYPE].map((type) => [
      type,
      {
        post: {
          operationId: `${type.replace(/[._-]+(.)/g, (_m, c: string) => c.toUpperCase())}Webhook`,
          summary:
            type === PING_EVENT_TYPE
              ? 'A test event (`POST /public_api/v2/webhooks/{id}/test`), signed per Standard Webhooks'
              : `The ${type} event, signed per Standard Webhooks`,
          // a delivery is authenticated by its signature headers, not by a token Lectern sends
          security: [],
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
                    data: {
                      type: 'object',
                      required: ['object'],
                      properties: {
                        object:
                          type === PING_EVENT_TYPE
                            ? {
                                type: 'object',
                                required: ['webhook_id', 'message'],
                                properties: { webhook_id: { type: 'string', format: 'uuid' }, message: { const: 'ping' } },
                              }
                            : { type: 'object', description: 'The resource as `GET` returns it (for a deletion, the last version)' },
                      },
                    },
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
