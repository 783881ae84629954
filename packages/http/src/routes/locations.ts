import type { Lectern } from '@lectern/core';
import { ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function locationRoutes(routes: RouteTable, lectern: Lectern): void {
  const locations = lectern.locations;
  routes
    .get('/api/v2/locations', async (rc) => ok(await locations.list(rc.ctx, rc.query)))
    .post('/api/v2/locations', async (rc) => withEtag(await locations.create(rc.ctx, rc.body()), 201))
    .get('/api/v2/locations/:id', async (rc) => withEtag(await locations.get(rc.ctx, rc.params.id!)))
    .patch('/api/v2/locations/:id', async (rc) => withEtag(await locations.update(rc.ctx, rc.params.id!, rc.body(), rc.preconditions)));
}
