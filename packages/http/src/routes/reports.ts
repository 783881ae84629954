import { createSavedReportInput, savedReportListSpec, savedReportSchema, updateSavedReportInput, type Lectern } from '@lectern/core';
import { anyObject, resource } from '../operation-spec.ts';
import { noContent, ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function savedReportRoutes(routes: RouteTable, lectern: Lectern): void {
  const reports = lectern.savedReports;
  const spec = resource('Saved reports', 'reports:read', savedReportSchema);
  routes
    .get('/api/v2/saved-reports', spec.list('List saved reports', savedReportListSpec), async (rc) =>
      ok(await reports.list(rc.ctx, rc.query)),
    )
    .post('/api/v2/saved-reports', spec.write('Save a report', createSavedReportInput, 201), async (rc) =>
      withEtag(await reports.create(rc.ctx, rc.body()), 201),
    )
    .get('/api/v2/saved-reports/:id', spec.get('Get a saved report'), async (rc) => withEtag(await reports.get(rc.ctx, rc.params.id)))
    .patch('/api/v2/saved-reports/:id', spec.write('Update a saved report', updateSavedReportInput), async (rc) =>
      withEtag(await reports.update(rc.ctx, rc.params.id, rc.body(), rc.preconditions)),
    )
    .delete('/api/v2/saved-reports/:id', spec.write('Delete a saved report', undefined, 204, null), async (rc) => {
      await reports.delete(rc.ctx, rc.params.id, rc.preconditions);
      return noContent();
    })
    .get(
      '/api/v2/saved-reports/:id/results',
      {
        ...spec.list('Run a saved report', savedReportListSpec, anyObject),
        // the report's own resource decides its filters and sortable fields, so only paging is described
        query: {
          paging: true,
          extra: {
            ordering: { schema: { type: 'string' }, description: "Sortable fields of the report's resource, `-` first for descending" },
          },
        },
      },
      async (rc) => ok(await reports.results(rc.ctx, rc.params.id, rc.query)),
    );
}
