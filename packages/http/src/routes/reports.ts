import type { Lectern } from '@lectern/core';
import { noContent, ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function savedReportRoutes(routes: RouteTable, lectern: Lectern): void {
  const reports = lectern.savedReports;
  routes
    .get('/api/v2/saved-reports', async (rc) => ok(await reports.list(rc.ctx, rc.query)))
    .post('/api/v2/saved-reports', async (rc) => withEtag(await reports.create(rc.ctx, rc.body()), undefined, 201))
    .get('/api/v2/saved-reports/:id', async (rc) => withEtag(await reports.get(rc.ctx, rc.params.id!), rc.header('if-none-match')))
    .patch('/api/v2/saved-reports/:id', async (rc) =>
      withEtag(await reports.update(rc.ctx, rc.params.id!, rc.body(), { ifMatch: rc.header('if-match') }), undefined),
    )
    .delete('/api/v2/saved-reports/:id', async (rc) => {
      await reports.delete(rc.ctx, rc.params.id!, { ifMatch: rc.header('if-match') });
      return noContent();
    })
    .get('/api/v2/saved-reports/:id/results', async (rc) => ok(await reports.results(rc.ctx, rc.params.id!, rc.query)));
}
