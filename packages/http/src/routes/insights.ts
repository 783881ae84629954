import { insightKinds, type Lectern } from '@lectern/core';
import { ok } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function insightRoutes(routes: RouteTable, lectern: Lectern): void {
  for (const kind of insightKinds) {
    routes.get(`/api/v2/insights/assignments/${kind}`, async (rc) => ok(await lectern.insights.get(rc.ctx, kind, rc.query)));
  }
}
