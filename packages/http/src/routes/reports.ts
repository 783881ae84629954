import type { Lectern } from '@lectern/core';
import { noContent, ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function savedReportRoutes(routes: RouteTable, lectern: Lectern): void {
  const reports = lectern.savedReports;
  routes
    .get('/api/v2/saved-reports', async (rc) => ok(await reports.list(rc.ctx, rc.query)))
    .post('/api/v2/saved-reports', async (rc) => withEtag(await reports.create(rc.ctx, rc.body()), 201))
    .get('/api/v2/saved-reports/:id', async (rc) => withEtag(await reports.get(rc.ctx, rc.params.id!)))
    .patch('/api/v2/saved-reports/:id', async (rc) => withEtag(await reports.update(rc.ctx, rc.params.id!, rc.body(), rc.preconditions)))
    .delete('/api/v2/saved-reports/:id', async (rc) => {
      await reports.delete(rc.ctx, rc.params.id!, rc.preconditions);
      return noContent();
    })
    .get('/api/v2/saved-reports/:id/results', async (rc) => ok(await reports.results(rc.ctx, rc.params.id!, rc.query)));
}
