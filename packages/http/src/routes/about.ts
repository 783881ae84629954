import { aboutSchema, type Lectern } from '@lectern/core';
import { ok } from '../reply.ts';
import type { RouteTable } from '../router.ts';

/** The console's About page: version for every signed-in caller, the deployment's features for admins. */
export function aboutRoutes(routes: RouteTable, lectern: Lectern): void {
  routes.get(
    '/api/v2/about',
    {
      summary:
        "This server's version and Node version for any signed-in caller; for admins also its database, instance id and which optional features (webhooks, email, single sign-on, SCIM) are configured, never their secrets",
      tag: 'Meta',
      scope: 'token',
      response: { status: 200, schema: aboutSchema },
    },
    async (rc) => ok(lectern.about.get(rc.ctx)),
  );
}
