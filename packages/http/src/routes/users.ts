import type { Lectern } from '@lectern/core';
import { accepted, ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function userRoutes(routes: RouteTable, lectern: Lectern): void {
  const users = lectern.users;
  // literal bulk paths before `/users/:id`
  routes
    .post('/api/v2/users/bulk', async (rc) => accepted(await users.bulk.submit(rc.ctx, rc.body())))
    .get('/api/v2/users/bulk/:id', async (rc) => ok(await users.bulk.get(rc.ctx, rc.params.id!)))
    .get('/api/v2/users/bulk/:id/items', async (rc) => ok(await users.bulk.items(rc.ctx, rc.params.id!, rc.query)));
  routes
    .get('/api/v2/users', async (rc) => ok(await users.list(rc.ctx, rc.query)))
    .post('/api/v2/users', async (rc) => withEtag(await users.create(rc.ctx, rc.body()), 201))
    .get('/api/v2/users/:id', async (rc) => withEtag(await users.get(rc.ctx, rc.params.id!)))
    .patch('/api/v2/users/:id', async (rc) => withEtag(await users.update(rc.ctx, rc.params.id!, rc.body(), rc.preconditions)));
}
