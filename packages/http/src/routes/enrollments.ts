import { enrollmentActions, type Lectern } from '@lectern/core';
import { accepted, ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function enrollmentRoutes(routes: RouteTable, lectern: Lectern): void {
  const enrollments = lectern.enrollments;
  // literal bulk paths first, or `/enrollments/:id` would take `bulk` for an id
  routes
    .post('/api/v2/enrollments/bulk', async (rc) => accepted(await enrollments.bulkCreate(rc.ctx, rc.body())))
    .get('/api/v2/enrollments/bulk/:id', async (rc) => ok(await enrollments.getBulk(rc.ctx, rc.params.id!)))
    .get('/api/v2/enrollments/bulk/:id/items', async (rc) => ok(await enrollments.getBulkItems(rc.ctx, rc.params.id!, rc.query)))
    .get('/api/v2/enrollments', async (rc) => ok(await enrollments.list(rc.ctx, rc.query)))
    .post('/api/v2/enrollments', async (rc) => {
      const { enrollment, created } = await enrollments.create(rc.ctx, rc.body());
      return withEtag(enrollment, undefined, created ? 201 : 200);
    })
    .get('/api/v2/enrollments/:id', async (rc) => withEtag(await enrollments.get(rc.ctx, rc.params.id!), rc.header('if-none-match')));
  for (const action of enrollmentActions) {
    routes.post(`/api/v2/enrollments/:id/${action}`, async (rc) =>
      withEtag(await enrollments.act(rc.ctx, rc.params.id!, action, rc.body(), { ifMatch: rc.header('if-match') }), undefined),
    );
  }
}
