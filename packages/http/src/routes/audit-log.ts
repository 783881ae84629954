import type { Lectern } from '@lectern/core';
import { ok } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function auditLogRoutes(routes: RouteTable, lectern: Lectern): void {
  routes.get('/api/v2/audit-log', async (rc) => ok(await lectern.auditLog.list(rc.ctx, rc.query)));
}
