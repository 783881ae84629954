import type { Lectern } from '@lectern/core';
import { ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function userRoutes(routes: RouteTable, lectern: Lectern): void {
  const users = lectern.users;
  routes
    .get('/api/v2/users', async (rc) => ok(await users.list(rc.ctx, rc.query)))
    .post('/api/v2/users', async (rc) => withEtag(await users.create(rc.ctx, rc.body()), undefined, 201))
    .get('/api/v2/users/:id', async (rc) => withEtag(await users.get(rc.ctx, rc.params.id!), rc.header('if-none-match')))
    .patch('/api/v2/users/:id', async (rc) =>
      withEtag(await users.update(rc.ctx, rc.params.id!, rc.body(), { ifMatch: rc.header('if-match') }), undefined),
    );
}
