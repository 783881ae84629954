import type { Lectern } from '@lectern/core';
import { ok } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function meRoutes(routes: RouteTable, lectern: Lectern): void {
  routes.get('/api/v2/me', async (rc) => ok(await lectern.me.get(rc.ctx)));
}
