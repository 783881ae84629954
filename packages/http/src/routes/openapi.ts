import { API_VERSION } from '@lectern/core';
import { buildOpenApiDocument, type OpenApiDocument } from '../openapi/document.ts';
import { ok } from '../reply.ts';
import type { RouteTable } from '../router.ts';

/** The API's own description, open without a token so tools can fetch it. */
export function openApiRoutes(routes: RouteTable): void {
  let document: OpenApiDocument | undefined;
  // built on first request, when every route is registered
  routes.publicGet('/api/v2/openapi.json', () => ok((document ??= buildOpenApiDocument(routes, API_VERSION))));
}
