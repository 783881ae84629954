import { bulkUserItem, createUserInput, MAX_BULK_USERS, updateUserInput, userListSpec, userSchema, type Lectern } from '@lectern/core';
import { bulkBody, resource } from '../operation-spec.ts';
import { ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';
import { bulkJobRoutes } from './bulk-job-routes.ts';

const bulkCreate = bulkBody('UserBulkCreate', 'users', MAX_BULK_USERS, bulkUserItem);

export function userRoutes(routes: RouteTable, lectern: Lectern): void {
  const users = lectern.users;
  const spec = resource('Users', 'users:read', userSchema);
  // literal bulk paths before `/users/:id`
  const bulk = bulkJobRoutes(spec, users.bulk, bulkCreate, {
    submit: 'Create users in bulk (a job)',
    job: 'A bulk user job',
    items: 'The per-item results of a bulk user job',
  });
  routes
    .post('/api/v2/users/bulk', ...bulk.submit)
    .get('/api/v2/users/bulk/:id', ...bulk.job)
    .get('/api/v2/users/bulk/:id/items', ...bulk.items);
  routes
    .get('/api/v2/users', spec.list('List users', userListSpec), async (rc) => ok(await users.list(rc.ctx, rc.query)))
    .post('/api/v2/users', spec.write('Create a user', createUserInput, 201), async (rc) =>
      withEtag(await users.create(rc.ctx, rc.body()), 201),
    )
    .get('/api/v2/users/:id', spec.get('Get a user'), async (rc) => withEtag(await users.get(rc.ctx, rc.params.id)))
    .patch('/api/v2/users/:id', spec.write('Update a user', updateUserInput), async (rc) =>
      withEtag(await users.update(rc.ctx, rc.params.id, rc.body(), rc.preconditions)),
    );
}
