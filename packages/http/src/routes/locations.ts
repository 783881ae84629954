import { createLocationInput, locationListSpec, locationSchema, updateLocationInput, type Lectern } from '@lectern/core';
import { resource } from '../operation-spec.ts';
import { ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';

export function locationRoutes(routes: RouteTable, lectern: Lectern): void {
  const locations = lectern.locations;
  const spec = resource('Locations', 'events:read', locationSchema);
  routes
    .get('/api/v2/locations', spec.list('List locations', locationListSpec), async (rc) => ok(await locations.list(rc.ctx, rc.query)))
    .post('/api/v2/locations', spec.write('Create a location', createLocationInput, 201), async (rc) =>
      withEtag(await locations.create(rc.ctx, rc.body()), 201),
    )
    .get('/api/v2/locations/:id', spec.get('Get a location'), async (rc) => withEtag(await locations.get(rc.ctx, rc.params.id)))
    .patch(
      '/api/v2/locations/:id',
      spec.write('Rename a location, or change its time zone while no event or series is held there (409 otherwise)', updateLocationInput),
      async (rc) => withEtag(await locations.update(rc.ctx, rc.params.id, rc.body(), rc.preconditions)),
    );
}
