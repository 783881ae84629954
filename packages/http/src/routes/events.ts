import type { EventSeriesService, EventService, Lectern } from '@lectern/core';
import { accepted, noContent, ok, withEtag } from '../reply.ts';
import type { RouteTable } from '../router.ts';

/** What `/events/` and `/event-series/` both offer; each service supplies its own shape and rules. */
function eventLikeRoutes(routes: RouteTable, base: string, service: EventService | EventSeriesService): void {
  // literal bulk paths first, or `${base}/:id` would take `bulk` for an id
  routes
    .patch(`${base}/bulk`, async (rc) => accepted(await service.bulkUpdate(rc.ctx, rc.body())))
    .get(`${base}/bulk/:id`, async (rc) => ok(await service.getBulk(rc.ctx, rc.params.id!)))
    .get(`${base}/bulk/:id/items`, async (rc) => ok(await service.getBulkItems(rc.ctx, rc.params.id!, rc.query)))
    .get(base, async (rc) => ok(await service.list(rc.ctx, rc.query)))
    .post(base, async (rc) => withEtag(await service.create(rc.ctx, rc.body()), undefined, 201))
    .get(`${base}/:id`, async (rc) => withEtag(await service.get(rc.ctx, rc.params.id!), rc.header('if-none-match')))
    .patch(`${base}/:id`, async (rc) =>
      withEtag(await service.update(rc.ctx, rc.params.id!, rc.body(), { ifMatch: rc.header('if-match') }), undefined),
    )
    .delete(`${base}/:id`, async (rc) => {
      await service.delete(rc.ctx, rc.params.id!, { ifMatch: rc.header('if-match') });
      return noContent();
    })
    .get(`${base}/:id/facilitators`, async (rc) => withEtag(await service.facilitators(rc.ctx, rc.params.id!), rc.header('if-none-match')))
    .put(`${base}/:id/facilitators`, async (rc) =>
      withEtag(await service.replaceFacilitators(rc.ctx, rc.params.id!, rc.body()), undefined),
    );
}

export function eventRoutes(routes: RouteTable, lectern: Lectern): void {
  eventLikeRoutes(routes, '/api/v2/events', lectern.scheduledEvents);
  eventLikeRoutes(routes, '/api/v2/event-series', lectern.eventSeries);
}
