import type { InsightKind, Lectern } from '@lectern/core';
import { ok } from '../reply.ts';
import type { RouteHandler, RouteTable } from '../router.ts';

export function insightRoutes(routes: RouteTable, lectern: Lectern): void {
  const insight =
    (kind: InsightKind): RouteHandler =>
    async (rc) =>
      ok(await lectern.insights.get(rc.ctx, kind, rc.query));
  routes
    .get('/api/v2/insights/assignments/completion', insight('completion'))
    .get('/api/v2/insights/assignments/overdue', insight('overdue'))
    .get('/api/v2/insights/assignments/feedback', insight('feedback'))
    .get('/api/v2/insights/assignments/ratings', insight('ratings'))
    .get('/api/v2/insights/assignments/pass-fail', insight('pass-fail'));
}
