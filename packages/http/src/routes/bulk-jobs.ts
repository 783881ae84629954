import { bulkJobListSpec, bulkJobSummarySchema, type Lectern } from '@lectern/core';
import { ok } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function bulkJobRoutes(routes: RouteTable, lectern: Lectern): void {
  routes.get(
    '/api/v2/bulk-jobs',
    {
      summary: 'Every bulk job of every kind, newest first (admins: all; others: their own)',
      tag: 'Bulk jobs',
      scope: 'token',
      query: { list: bulkJobListSpec },
      response: { status: 200, schema: bulkJobSummarySchema, list: true },
    },
    async (rc) => ok(await lectern.bulkJobs.list(rc.ctx, rc.query)),
  );
}
