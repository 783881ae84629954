import { z } from 'zod';
import type { LecternMetrics } from '../metrics/metrics.ts';
import { document } from '../reply.ts';
import type { RouteTable } from '../router.ts';

/** Prometheus' scrape target: this server's own figures, for admins' `metrics:read` tokens (docs/operations.md). */
export function metricsRoutes(routes: RouteTable, metrics: LecternMetrics): void {
  routes.get(
    '/metrics',
    {
      summary: "This server's own metrics, in Prometheus' text format",
      tag: 'Meta',
      scope: 'metrics:read',
      response: { status: 200, schema: z.string(), mediaType: 'text/plain' },
    },
    async () => document(metrics.contentType, await metrics.render(), { 'Cache-Control': 'no-store' }),
  );
}
