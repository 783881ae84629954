import type { Lectern } from '@lectern/core';
import { ok } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function bulkJobRoutes(routes: RouteTable, lectern: Lectern): void {
  routes.get('/api/v2/bulk-jobs', async (rc) => ok(await lectern.bulkJobs.list(rc.ctx, rc.query)));
}
