import {
  completionInsightSchema,
  feedbackInsightSchema,
  insightFilterSpec,
  overdueInsightSchema,
  passFailInsightSchema,
  ratingsInsightSchema,
  weeklyCompletionsSchema,
  type InsightKind,
  type Lectern,
} from '@lectern/core';
import type { z } from 'zod';
import type { OperationSpec } from '../operation-spec.ts';
import { ok } from '../reply.ts';
import type { RouteHandler, RouteTable } from '../router.ts';

// each insight's body as the document declares it, so clients read its counts without guessing
const bodies: Record<InsightKind, z.ZodType> = {
  completion: completionInsightSchema,
  overdue: overdueInsightSchema,
  feedback: feedbackInsightSchema,
  ratings: ratingsInsightSchema,
  'pass-fail': passFailInsightSchema,
  'weekly-completions': weeklyCompletionsSchema,
};

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
    response: { status: 200, schema: bodies[kind] },
  });
  routes
    .get('/api/v2/insights/assignments/completion', spec('completion'), insight('completion'))
    .get('/api/v2/insights/assignments/overdue', spec('overdue'), insight('overdue'))
    .get('/api/v2/insights/assignments/feedback', spec('feedback'), insight('feedback'))
    .get('/api/v2/insights/assignments/ratings', spec('ratings'), insight('ratings'))
    .get('/api/v2/insights/assignments/pass-fail', spec('pass-fail'), insight('pass-fail'))
    .get(
      '/api/v2/insights/assignments/weekly-completions',
      { ...spec('weekly-completions'), summary: 'Completions per week, the last 12 ISO weeks (UTC), the current one last' },
      insight('weekly-completions'),
    );
}
