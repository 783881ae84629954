import type { EnrollmentAction, Lectern } from '@lectern/core';
import { accepted, ok, withEtag } from '../reply.ts';
import type { RouteHandler, RouteTable } from '../router.ts';

export function enrollmentRoutes(routes: RouteTable, lectern: Lectern): void {
  const enrollments = lectern.enrollments;
  routes
    .post('/api/v2/enrollments/bulk', async (rc) => accepted(await enrollments.bulk.submit(rc.ctx, rc.body())))
    .get('/api/v2/enrollments/bulk/:id', async (rc) => ok(await enrollments.bulk.get(rc.ctx, rc.params.id!)))
    .get('/api/v2/enrollments/bulk/:id/items', async (rc) => ok(await enrollments.bulk.items(rc.ctx, rc.params.id!, rc.query)))
    .get('/api/v2/enrollments', async (rc) => ok(await enrollments.list(rc.ctx, rc.query)))
    .post('/api/v2/enrollments', async (rc) => {
      const { enrollment, created } = await enrollments.create(rc.ctx, rc.body());
      return withEtag(enrollment, created ? 201 : 200);
    })
    .get('/api/v2/enrollments/:id', async (rc) => withEtag(await enrollments.get(rc.ctx, rc.params.id!)));
  const act =
    (action: EnrollmentAction): RouteHandler =>
    async (rc) =>
      withEtag(await enrollments.act(rc.ctx, rc.params.id!, action, rc.body(), rc.preconditions));
  routes
    .post('/api/v2/enrollments/:id/checkin', act('checkin'))
    .post('/api/v2/enrollments/:id/drop', act('drop'))
    .post('/api/v2/enrollments/:id/undo-checkin', act('undo-checkin'));
}
