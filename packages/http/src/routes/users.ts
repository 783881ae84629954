import { bulkUserItem, createUserInput, MAX_BULK_USERS, updateUserInput, userListSpec, userSchema, type Lectern } from '@lectern/core';
import { bulkBody, resource } from '../operation-spec.ts';
import { accepted, ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';

const bulkCreate = bulkBody('UserBulkCreate', 'users', MAX_BULK_USERS, bulkUserItem);

export function userRoutes(routes: RouteTable, lectern: Lectern): void {
  const users = lectern.users;
  const spec = resource('Users', 'users:read', userSchema);
  // literal bulk paths before `/users/:id`
  routes
    .post('/api/v2/users/bulk', spec.bulk('Create users in bulk (a job)', bulkCreate), async (rc) =>
      accepted(await users.bulk.submit(rc.ctx, rc.body())),
    )
    .get('/api/v2/users/bulk/:id', spec.job('A bulk user job'), async (rc) => ok(await users.bulk.get(rc.ctx, rc.params.id)))
    .get('/api/v2/users/bulk/:id/items', spec.jobItems('The per-item results of a bulk user job'), async (rc) =>
      ok(await users.bulk.items(rc.ctx, rc.params.id, rc.query)),
    );
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
