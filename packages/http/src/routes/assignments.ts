import {
  assignmentListSpec,
  assignmentSchema,
  createAssignmentInput,
  dropInput,
  feedbackInput,
  MAX_BULK_ASSIGNMENTS,
  progressInput,
  updateAssignmentInput,
  type AssignmentRouteAction,
  type Lectern,
} from '@lectern/core';
import { bulkBody, resource } from '../operation-spec.ts';
import { noContent, ok, withEtag, withValidators } from '../reply.ts';
import type { RouteHandler, RouteTable } from '../router.ts';
import { bulkJobRoutes } from './bulk-job-routes.ts';

const bulkCreate = bulkBody('AssignmentBulkCreate', 'assignments', MAX_BULK_ASSIGNMENTS, createAssignmentInput);

/** what the actions take, each checking its own (complete and the undos take none) */
type ActionBody = Parameters<Lectern['assignments']['act']>[3];

export function assignmentRoutes(routes: RouteTable, lectern: Lectern): void {
  const assignments = lectern.assignments;
  const spec = resource('Assignments', 'assignments:read', assignmentSchema);
  const bulk = bulkJobRoutes(spec, assignments.bulk, bulkCreate, {
    submit: 'Create assignments in bulk (a job)',
    job: 'A bulk assignment job',
    items: 'The per-item results of a bulk assignment job',
  });
  routes
    .post('/api/v2/assignments/bulk', ...bulk.submit)
    .get('/api/v2/assignments/bulk/:id', ...bulk.job)
    .get('/api/v2/assignments/bulk/:id/items', ...bulk.items);

  routes
    .get('/api/v2/assignments', spec.list('List assignments', assignmentListSpec), async (rc) =>
      ok(await assignments.list(rc.ctx, rc.query)),
    )
    .post(
      '/api/v2/assignments',
      spec.write('Assign content (201 new, 200 an existing active one)', createAssignmentInput, 201),
      async (rc) => {
        const result = await assignments.create(rc.ctx, rc.body());
        return result.created ? withEtag(result.assignment, 201) : withEtag(result.assignment);
      },
    )
    .get('/api/v2/assignments/:id', spec.get('Get an assignment'), async (rc) => {
      const { assignment, lastModified } = await assignments.get(rc.ctx, rc.params.id);
      return withValidators(assignment, lastModified);
    })
    .patch('/api/v2/assignments/:id', spec.write('Update an assignment', updateAssignmentInput), async (rc) =>
      withEtag(await assignments.update(rc.ctx, rc.params.id, rc.body(), rc.preconditions)),
    )
    .delete('/api/v2/assignments/:id', spec.write('Delete an assignment', undefined, 204, null), async (rc) => {
      await assignments.delete(rc.ctx, rc.params.id, rc.preconditions);
      return noContent();
    })
    .post('/api/v2/assignments/:id/progress', spec.write('Record progress', progressInput), async (rc) =>
      withEtag(await assignments.progress(rc.ctx, rc.params.id, rc.body(), rc.preconditions)),
    )
    .post('/api/v2/assignments/:id/feedback', spec.write('Leave feedback', feedbackInput), async (rc) =>
      withEtag(await assignments.feedback(rc.ctx, rc.params.id, rc.body(), rc.preconditions)),
    );
  const act =
    (action: AssignmentRouteAction): RouteHandler<{ readonly id: string }, ActionBody> =>
    async (rc) =>
      withEtag(await assignments.act(rc.ctx, rc.params.id, action, rc.body(), rc.preconditions));
  routes
    .post('/api/v2/assignments/:id/complete', spec.write('Action: complete', undefined), act('complete'))
    .post('/api/v2/assignments/:id/drop', spec.write('Action: drop', dropInput), act('drop'))
    .post('/api/v2/assignments/:id/exempt', spec.write('Action: exempt', undefined), act('exempt'))
    .post('/api/v2/assignments/:id/undo-complete', spec.write('Action: undo-complete', undefined), act('undo-complete'))
    .post('/api/v2/assignments/:id/undo-exempt', spec.write('Action: undo-exempt', undefined), act('undo-exempt'));
}
