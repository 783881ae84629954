import { meSchema, type Lectern } from '@lectern/core';
import { ok } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function meRoutes(routes: RouteTable, lectern: Lectern): void {
  routes.get(
    '/api/v2/me',
    { summary: 'Who the caller is and what its token allows', tag: 'Users', scope: 'token', response: { status: 200, schema: meSchema } },
    async (rc) => ok(await lectern.me.get(rc.ctx)),
  );
}
