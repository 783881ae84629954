import type { Lectern } from '@lectern/core';
import { ok } from '../reply.ts';
import type { RouteTable } from '../router.ts';

/** The console's About page: version for every signed-in caller, the deployment's features for admins. */
export function aboutRoutes(routes: RouteTable, lectern: Lectern): void {
  routes.get('/api/v2/about', async (rc) => ok(lectern.about.get(rc.ctx)));
}
