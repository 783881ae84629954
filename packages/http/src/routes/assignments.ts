import type { AssignmentRouteAction, Lectern } from '@lectern/core';
import { accepted, noContent, ok, withEtag, withValidators } from '../reply.ts';
import type { RouteHandler, RouteTable } from '../router.ts';

export function assignmentRoutes(routes: RouteTable, lectern: Lectern): void {
  const assignments = lectern.assignments;
  routes
    .post('/api/v2/assignments/bulk', async (rc) => accepted(await assignments.bulk.submit(rc.ctx, rc.body())))
    .get('/api/v2/assignments/bulk/:id', async (rc) => ok(await assignments.bulk.get(rc.ctx, rc.params.id!)))
    .get('/api/v2/assignments/bulk/:id/items', async (rc) => ok(await assignments.bulk.items(rc.ctx, rc.params.id!, rc.query)));

  routes
    .get('/api/v2/assignments', async (rc) => ok(await assignments.list(rc.ctx, rc.query)))
    .post('/api/v2/assignments', async (rc) => {
      const result = await assignments.create(rc.ctx, rc.body());
      return result.created ? withEtag(result.assignment, 201) : withEtag(result.assignment);
    })
    .get('/api/v2/assignments/:id', async (rc) => {
      const { assignment, lastModified } = await assignments.get(rc.ctx, rc.params.id!);
      return withValidators(assignment, lastModified);
    })
    .patch('/api/v2/assignments/:id', async (rc) => withEtag(await assignments.update(rc.ctx, rc.params.id!, rc.body(), rc.preconditions)))
    .delete('/api/v2/assignments/:id', async (rc) => {
      await assignments.delete(rc.ctx, rc.params.id!, rc.preconditions);
      return noContent();
    })
    .post('/api/v2/assignments/:id/progress', async (rc) =>
      withEtag(await assignments.progress(rc.ctx, rc.params.id!, rc.body(), rc.preconditions)),
    )
    .post('/api/v2/assignments/:id/feedback', async (rc) =>
      withEtag(await assignments.feedback(rc.ctx, rc.params.id!, rc.body(), rc.preconditions)),
    );
  const act =
    (action: AssignmentRouteAction): RouteHandler =>
    async (rc) =>
      withEtag(await assignments.act(rc.ctx, rc.params.id!, action, rc.body(), rc.preconditions));
  routes
    .post('/api/v2/assignments/:id/complete', act('complete'))
    .post('/api/v2/assignments/:id/drop', act('drop'))
    .post('/api/v2/assignments/:id/exempt', act('exempt'))
    .post('/api/v2/assignments/:id/undo-complete', act('undo-complete'))
    .post('/api/v2/assignments/:id/undo-exempt', act('undo-exempt'));
}
