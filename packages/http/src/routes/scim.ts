/**
 * SCIM 2.0 at `/scim/v2` (docs/identity.md): identity providers provisioning users and groups. Not
 * part of the v2 API: its own route table, answered beside the API's (as the console's files are),
 * so it is neither in the OpenAPI document nor in its error envelope. Every answer, refusals of
 * authentication and unknown paths included, is SCIM's: `application/scim+json`, errors in the
 * SCIM error schema (RFC 7644 §3.12).
 */
import {
  etagOfJson,
  LecternError,
  SCIM_ERROR,
  ScimError,
  scimListResponse,
  scimResourceTypes,
  scimSearchParams,
  scimSchemas,
  scimServiceProviderConfig,
  type Lectern,
} from '@lectern/core';
import { errorStatus } from '../error-response.ts';
import type { OperationSpec } from '../operation-spec.ts';
import type { Reply } from '../reply.ts';
import { RouteTable, type RouteContext, type RouteHandler, type RoutedContext } from '../router.ts';

export const SCIM_PREFIX = '/scim/v2';
const SCIM_MEDIA_TYPE = 'application/scim+json; charset=utf-8';

/** A SCIM resource or message; a resource with `meta.version` carries it as its ETag. */
function scimReply(body: unknown, status = 200, headers: Record<string, string> = {}): Reply {
  const json = JSON.stringify(body);
  const version = (body as { meta?: { version?: string } }).meta?.version;
  return {
    status,
    content: { type: SCIM_MEDIA_TYPE, data: json },
    headers: { ...(version ? { ETag: version } : { ETag: etagOfJson(json) }), ...headers },
  };
}

/** The SCIM error schema; a validation error of the services is SCIM's `invalidValue`. */
export function scimErrorReply(error: LecternError): Reply {
  const scimType = error instanceof ScimError ? error.scimType : error.code === 'validation_error' ? 'invalidValue' : undefined;
  const status = error.code === 'validation_error' ? 400 : errorStatus[error.code];
  const fields = Object.entries(error.fieldErrors ?? {}).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
  const detail = [error.message, ...fields, ...(error.nonFieldErrors ?? [])].join(' ');
  const body = { schemas: [SCIM_ERROR], status: String(status), ...(scimType ? { scimType } : {}), detail };
  return { status, content: { type: SCIM_MEDIA_TYPE, data: JSON.stringify(body) }, headers: error.headers ?? {} };
}

/** Bodies are `application/scim+json`; plain JSON is taken too, as most clients send it. */
function assertScimBody(rc: RouteContext<unknown>): void {
  const type = rc.header('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== undefined && type !== '' && type !== 'application/scim+json' && type !== 'application/json') {
    throw new LecternError('unsupported_media_type', `Send the body as application/scim+json (or application/json), not ${type}.`);
  }
}

const withBody =
  <Params>(handler: RouteHandler<Params>): RouteHandler<Params> =>
  (rc) => {
    assertScimBody(rc);
    return handler(rc);
  };

/**
 * What every SCIM route declares: only a provisioning token has business here, the discovery
 * documents included (they say nothing secret). SCIM is not in the API's document, so no more.
 */
const scimRoute: OperationSpec = { summary: 'SCIM 2.0 (RFC 7644)', tag: 'SCIM', scope: 'scim:write', response: { status: 200 } };

export function scimRouteTable(lectern: Lectern): RouteTable {
  const base = () => `${lectern.config.publicUrl.replace(/\/+$/, '')}${SCIM_PREFIX}`;
  const { users, groups } = lectern.scim;
  const routes = new RouteTable();
  const discovery =
    (document: () => unknown): RouteHandler =>
    async () =>
      scimReply(document());
  const byId =
    <T extends { id: string }>(list: () => T[], what: string): RouteHandler<{ readonly id: string }> =>
    async (rc) => {
      const found = list().find((item) => item.id === decodeURIComponent(rc.params.id));
      if (!found) throw new LecternError('not_found', `${what} not found.`);
      return scimReply(found);
    };
  routes
    .get(
      '/scim/v2/ServiceProviderConfig',
      scimRoute,
      discovery(() => scimServiceProviderConfig(base())),
    )
    .get(
      '/scim/v2/ResourceTypes',
      scimRoute,
      discovery(() => everything(scimResourceTypes(base()))),
    )
    .get(
      '/scim/v2/ResourceTypes/:id',
      scimRoute,
      byId(() => scimResourceTypes(base()), 'Resource type'),
    )
    .get(
      '/scim/v2/Schemas',
      scimRoute,
      discovery(() => everything(scimSchemas(base()))),
    )
    .get(
      '/scim/v2/Schemas/:id',
      scimRoute,
      byId(() => scimSchemas(base()), 'Schema'),
    );

  routes
    .get('/scim/v2/Users', scimRoute, async (rc) => scimReply(await users.list(rc.ctx, rc.query)))
    .post(
      '/scim/v2/Users',
      scimRoute,
      withBody(async (rc) => {
        const user = await users.create(rc.ctx, rc.body(), rc.query);
        return scimReply(user, 201, { Location: user.meta.location });
      }),
    )
    .post(
      '/scim/v2/Users/.search',
      scimRoute,
      withBody(async (rc) => scimReply(await users.list(rc.ctx, scimSearchParams(rc.body())))),
    )
    .get('/scim/v2/Users/:id', scimRoute, async (rc) => scimReply(await users.get(rc.ctx, rc.params.id, rc.query)))
    .put(
      '/scim/v2/Users/:id',
      scimRoute,
      withBody(async (rc) => scimReply(await users.replace(rc.ctx, rc.params.id, rc.body(), rc.preconditions.ifMatch, rc.query))),
    )
    .patch(
      '/scim/v2/Users/:id',
      scimRoute,
      withBody(async (rc) => scimReply(await users.patch(rc.ctx, rc.params.id, rc.body(), rc.preconditions.ifMatch, rc.query))),
    )
    .delete('/scim/v2/Users/:id', scimRoute, async (rc) => {
      await users.delete(rc.ctx, rc.params.id, rc.preconditions.ifMatch);
      return { status: 204 };
    });

  routes
    .get('/scim/v2/Groups', scimRoute, async (rc) => scimReply(await groups.list(rc.ctx, rc.query)))
    .post(
      '/scim/v2/Groups',
      scimRoute,
      withBody(async (rc) => {
        const group = await groups.create(rc.ctx, rc.body(), rc.query);
        return scimReply(group, 201, { Location: group.meta.location });
      }),
    )
    .post(
      '/scim/v2/Groups/.search',
      scimRoute,
      withBody(async (rc) => scimReply(await groups.list(rc.ctx, scimSearchParams(rc.body())))),
    )
    .get('/scim/v2/Groups/:id', scimRoute, async (rc) => scimReply(await groups.get(rc.ctx, rc.params.id, rc.query)))
    .put(
      '/scim/v2/Groups/:id',
      scimRoute,
      withBody(async (rc) => scimReply(await groups.replace(rc.ctx, rc.params.id, rc.body(), rc.preconditions.ifMatch, rc.query))),
    )
    .patch(
      '/scim/v2/Groups/:id',
      scimRoute,
      withBody(async (rc) => scimReply(await groups.patch(rc.ctx, rc.params.id, rc.body(), rc.preconditions.ifMatch, rc.query))),
    )
    .delete('/scim/v2/Groups/:id', scimRoute, async (rc) => {
      await groups.delete(rc.ctx, rc.params.id, rc.preconditions.ifMatch);
      return { status: 204 };
    });
  return routes.finalize();
}

const everything = <T>(resources: T[]) => scimListResponse(resources, resources.length, 1);

export interface ScimApi {
  serves(pathname: string): boolean;
  /** The route's reply; what it throws, the app renders with scimErrorReply. */
  answer(method: string, pathname: string, rc: RoutedContext): Promise<Reply>;
}

export function scimApi(lectern: Lectern): ScimApi {
  const routes = scimRouteTable(lectern);
  return {
    serves: (pathname) => pathname === SCIM_PREFIX || pathname.startsWith(`${SCIM_PREFIX}/`),
    async answer(method, pathname, rc) {
      const reply = await routes.dispatchPath(method, pathname, rc);
      if (reply) return reply;
      throw new LecternError('not_found', `No SCIM endpoint at ${pathname}.`);
    },
  };
}
