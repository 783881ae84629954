import { authorize } from '@lectern/core';
import type { LecternMetrics } from '../metrics/metrics.ts';
import { document } from '../reply.ts';
import type { RouteTable } from '../router.ts';

/** Prometheus' scrape target: this server's own figures, for admins' `metrics:read` tokens (docs/operations.md). */
export function metricsRoutes(routes: RouteTable, metrics: LecternMetrics): void {
  routes.get('/metrics', async (rc) => {
    authorize(rc.ctx.actor, 'metrics:read');
    return document(metrics.contentType, await metrics.render(), { 'Cache-Control': 'no-store' });
  });
}
