import {
  createEnrollmentInput,
  enrollmentListSpec,
  enrollmentSchema,
  MAX_BULK_ENROLLMENTS,
  type EnrollmentAction,
  type Lectern,
} from '@lectern/core';
import { bulkBody, resource } from '../operation-spec.ts';
import { ok, withEtag } from '../reply.ts';
import type { RouteHandler, RouteTable } from '../router.ts';
import { bulkJobRoutes } from './bulk-job-routes.ts';

const bulkCreate = bulkBody('EnrollmentBulkCreate', 'enrollments', MAX_BULK_ENROLLMENTS, createEnrollmentInput);

export function enrollmentRoutes(routes: RouteTable, lectern: Lectern): void {
  const enrollments = lectern.enrollments;
  const spec = resource('Enrollments', 'enrollments:read', enrollmentSchema);
  const bulk = bulkJobRoutes(spec, enrollments.bulk, bulkCreate, {
    submit: 'Enroll in bulk (a job)',
    job: 'A bulk enrollment job',
    items: 'The per-item results of a bulk enrollment job',
  });
  routes
    .post('/api/v2/enrollments/bulk', ...bulk.submit)
    .get('/api/v2/enrollments/bulk/:id', ...bulk.job)
    .get('/api/v2/enrollments/bulk/:id/items', ...bulk.items)
    .get('/api/v2/enrollments', spec.list('List enrollments', enrollmentListSpec), async (rc) =>
      ok(await enrollments.list(rc.ctx, rc.query)),
    )
    .post('/api/v2/enrollments', spec.write('Enroll (201 new, 200 an existing active one)', createEnrollmentInput, 201), async (rc) => {
      const { enrollment, created } = await enrollments.create(rc.ctx, rc.body());
      return withEtag(enrollment, created ? 201 : 200);
    })
    .get('/api/v2/enrollments/:id', spec.get('Get an enrollment'), async (rc) => withEtag(await enrollments.get(rc.ctx, rc.params.id)));
  const act =
    (action: EnrollmentAction): RouteHandler<{ readonly id: string }, Parameters<Lectern['enrollments']['act']>[3]> =>
    async (rc) =>
      withEtag(await enrollments.act(rc.ctx, rc.params.id, action, rc.body(), rc.preconditions));
  routes
    .post('/api/v2/enrollments/:id/checkin', spec.write('Action: checkin', undefined), act('checkin'))
    .post('/api/v2/enrollments/:id/drop', spec.write('Action: drop', undefined), act('drop'))
    .post('/api/v2/enrollments/:id/undo-checkin', spec.write('Action: undo-checkin', undefined), act('undo-checkin'));
}
