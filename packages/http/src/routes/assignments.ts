import { assignmentRouteActions, type Lectern } from '@lectern/core';
import { accepted, noContent, ok, withEtag, withValidators } from '../reply.ts';
import type { RouteContext, RouteTable } from '../router.ts';

const ifMatch = (rc: RouteContext) => ({ ifMatch: rc.header('if-match') });

export function assignmentRoutes(routes: RouteTable, lectern: Lectern): void {
  const assignments = lectern.assignments;
  // literal bulk paths first, or `/assignments/:id` would take `bulk` for an id
  routes
    .post('/api/v2/assignments/bulk', async (rc) => accepted(await assignments.bulkCreate(rc.ctx, rc.body())))
    .get('/api/v2/assignments/bulk/:id', async (rc) => ok(await assignments.getBulk(rc.ctx, rc.params.id!)))
    .get('/api/v2/assignments/bulk/:id/items', async (rc) => ok(await assignments.getBulkItems(rc.ctx, rc.params.id!, rc.query)));

  routes
    .get('/api/v2/assignments', async (rc) => ok(await assignments.list(rc.ctx, rc.query)))
    .post('/api/v2/assignments', async (rc) => {
      const result = await assignments.create(rc.ctx, rc.body());
      return result.created ? withEtag(result.assignment, undefined, 201) : withEtag(result.assignment, undefined);
    })
    .get('/api/v2/assignments/:id', async (rc) => {
      const { assignment, lastModified } = await assignments.get(rc.ctx, rc.params.id!);
      return withValidators(assignment, lastModified, {
        ifNoneMatch: rc.header('if-none-match'),
        ifModifiedSince: rc.header('if-modified-since'),
      });
    })
    .patch('/api/v2/assignments/:id', async (rc) =>
      withEtag(await assignments.update(rc.ctx, rc.params.id!, rc.body(), ifMatch(rc)), undefined),
    )
    .delete('/api/v2/assignments/:id', async (rc) => {
      await assignments.delete(rc.ctx, rc.params.id!, ifMatch(rc));
      return noContent();
    })
    .post('/api/v2/assignments/:id/progress', async (rc) =>
      withEtag(await assignments.progress(rc.ctx, rc.params.id!, rc.body(), ifMatch(rc)), undefined),
    )
    .post('/api/v2/assignments/:id/feedback', async (rc) =>
      withEtag(await assignments.feedback(rc.ctx, rc.params.id!, rc.body(), ifMatch(rc)), undefined),
    );
  for (const action of assignmentRouteActions) {
    routes.post(`/api/v2/assignments/:id/${action}`, async (rc) =>
      withEtag(await assignments.act(rc.ctx, rc.params.id!, action, rc.body(), ifMatch(rc)), undefined),
    );
  }
}
