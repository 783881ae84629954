/**
 * What a route declares beside its path and handler, where it is registered (routes/*.ts): its
 * summary, the scope the router checks before the handler runs, and the schemas the OpenAPI
 * document is built from (openapi/document.ts). Schemas are the ones the services validate and
 * shape with, so the description cannot say one thing while the server does another:
 *
 * - `request`/`response.schema`: the zod schemas themselves; each becomes a named component
 *   (named where core declares it, `apiSchemaNames`; `named()` here; else after its operation);
 * - `query.list`: the ListSpec the service parses the query string with (filters, bounds, `search`,
 *   `ordering`); `query.extra`: parameters read outside a ListSpec, as JSON Schema;
 * - `requestMediaType` for a body that is not JSON.
 *
 * test/http/openapi-contract-fuzz.test.ts then sends every operation generated requests and holds
 * the answers to what is declared.
 */
import { apiSchemaNames, jobItemListSpec, jobItemSchema, jobSchema, type ListSpec, type Scope } from '@lectern/core';
import { z } from 'zod';

export interface OperationSpec<Request extends z.ZodType | undefined = z.ZodType | undefined> {
  summary: string;
  /** the section of the reference page (and of docs/*.md's links) */
  tag: string;
  /**
   * the token scope the route requires, checked by the router before the handler runs; `token`
   * for any valid token; `null` for routes open without one
   */
  scope: Scope | 'token' | null;
  request?: Request;
  /** the request body's media type when it is not JSON (an import's CSV file) */
  requestMediaType?: string;
  /** the success status and body; `list` wraps the schema in the `{data, meta}` page envelope */
  response: { status: number; schema?: z.ZodType; list?: boolean; etag?: boolean; alsoStatuses?: number[]; mediaType?: string };
  /**
   * The query string: a list's ListSpec (the one the service parses with, so every filter, bound,
   * `search` and sortable field is described), and parameters read outside a ListSpec (JSON Schema).
   */
  query?: {
    list?: ListSpec;
    paging?: boolean;
    extra?: Record<string, { schema: Record<string, unknown>; description: string; required?: boolean }>;
  };
  /** probes answer before rate limiting, so without its headers */
  rateLimited?: false;
}

/** Names a schema a route declares that core does not, as core names its own (apiSchemaNames). */
export const named = <T extends z.ZodType>(name: string, schema: T): T => {
  apiSchemaNames.add(schema, { id: name });
  return schema;
};

/** a response described only as a JSON object */
export const anyObject = named('AnyObject', z.object({}).passthrough());

/**
 * A bulk job's body: the job engine checks the strict wrapper (bulkEnvelope, its key and item count),
 * each item is checked when the job runs it, so an invalid item fails in the job's items, not with a 422.
 */
export const bulkBody = (name: string, key: string, max: number, item: z.ZodType) =>
  named(name, z.strictObject({ [key]: z.array(item).min(1).max(max) }));

/** The query parameters of a list paged by cursor (`next_cursor`), whose ids start with `prefix`. */
export const cursorPaging = (what: string, prefix: string): NonNullable<NonNullable<OperationSpec['query']>['extra']> => ({
  page_size: { schema: { type: 'integer', minimum: 1 }, description: `${what} per page (25 by default, at most 100)` },
  cursor: {
    schema: { type: 'string', pattern: `^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$` },
    description: 'The `next_cursor` of the previous page',
  },
});

/** a synchronous batch: 200 all succeeded, 207 some did (same body), 422 none did */
export const batch = <S extends OperationSpec>(spec: S): S => ({ ...spec, response: { ...spec.response, alsoStatuses: [207] } });

/** The declarations every resource's routes share: a list, a read, a write, a bulk job and its items. */
export type ResourceSpecs = ReturnType<typeof resource>;
export const resource = (tag: string, scope: Scope, schema: z.ZodType) => ({
  /** a bulk submission, answered 202 with the job */
  bulk: <R extends z.ZodType>(summary: string, request: R): OperationSpec<R> => ({
    summary,
    tag,
    scope: scope.replace(':read', ':write') as Scope,
    request,
    response: { status: 202, schema: jobSchema, etag: false },
  }),
  jobItems: (summary: string): OperationSpec => ({
    summary,
    tag,
    scope,
    query: { list: jobItemListSpec },
    response: { status: 200, schema: jobItemSchema, list: true },
  }),
  job: (summary: string): OperationSpec => ({ summary, tag, scope, response: { status: 200, schema: jobSchema } }),
  list: (summary: string, list: ListSpec, item: z.ZodType = schema): OperationSpec => ({
    summary,
    tag,
    scope,
    query: { list },
    response: { status: 200, schema: item, list: true },
  }),
  get: (summary: string, body: z.ZodType = schema, etag = body === schema): OperationSpec => ({
    summary,
    tag,
    scope,
    response: { status: 200, schema: body, ...(etag ? { etag } : {}) },
  }),
  write: <R extends z.ZodType | undefined>(
    summary: string,
    request: R,
    status = 200,
    body: z.ZodType | null = schema,
  ): OperationSpec<R> => ({
    summary,
    tag,
    scope: scope.replace(':read', ':write') as Scope,
    ...(request ? { request } : {}),
    response: { status, ...(body ? { schema: body } : {}), etag: status !== 204 && body === schema },
  }),
});
