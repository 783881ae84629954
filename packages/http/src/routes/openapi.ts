import { API_VERSION } from '@lectern/core';
import { CompressedFile } from '../api-reference/compressed-files.ts';
import { buildOpenApiDocument } from '../openapi/document.ts';
import { anyObject } from '../operation-spec.ts';
import type { RouteTable } from '../router.ts';

/** The API's own description, open without a token so tools can fetch it; compressed when the client accepts it. */
export function openApiRoutes(routes: RouteTable): void {
  let json: Buffer | undefined;
  // built on first request, when every route is registered
  const file = new CompressedFile(
    'application/json; charset=utf-8',
    () => (json ??= Buffer.from(JSON.stringify(buildOpenApiDocument(routes, API_VERSION)))),
  );
  routes.get(
    '/api/v2/openapi.json',
    { summary: 'This description (OpenAPI 3.1)', tag: 'Meta', scope: null, response: { status: 200, schema: anyObject } },
    (rc) => file.reply(rc.header('accept-encoding')),
  );
}
