import { insightFilterSpec, weeklyCompletionsSchema, type InsightKind, type Lectern } from '@lectern/core';
import { anyObject, type OperationSpec } from '../operation-spec.ts';
import { ok } from '../reply.ts';
import type { RouteHandler, RouteTable } from '../router.ts';

export function insightRoutes(routes: RouteTable, lectern: Lectern): void {
  const insight =
    (kind: InsightKind): RouteHandler =>
    async (rc) =>
      ok(await lectern.insights.get(rc.ctx, kind, rc.query));
  const spec = (kind: InsightKind): OperationSpec => ({
    summary: `Assignment insight: ${kind}`,
    tag: 'Insights',
    scope: 'insights:read',
    query: { list: insightFilterSpec },
    response: { status: 200, schema: anyObject },
  });
  routes
    .get('/api/v2/insights/assignments/completion', spec('completion'), insight('completion'))
    .get('/api/v2/insights/assignments/overdue', spec('overdue'), insight('overdue'))
    .get('/api/v2/insights/assignments/feedback', spec('feedback'), insight('feedback'))
    .get('/api/v2/insights/assignments/ratings', spec('ratings'), insight('ratings'))
    .get('/api/v2/insights/assignments/pass-fail', spec('pass-fail'), insight('pass-fail'))
    .get(
      '/api/v2/insights/assignments/weekly-completions',
      {
        ...spec('weekly-completions'),
        summary: 'Completions per week, the last 12 ISO weeks (UTC), the current one last',
        response: { status: 200, schema: weeklyCompletionsSchema },
      },
      insight('weekly-completions'),
    );
}
