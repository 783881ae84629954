import type { EventSeriesService, EventService, Lectern } from '@lectern/core';
import { accepted, noContent, ok, withEtag } from '../reply.ts';
import type { RouteHandler, RouteTable } from '../router.ts';

/** What `/events/` and `/event-series/` both do; each service supplies its own shape and rules. */
function eventLikeHandlers(service: EventService | EventSeriesService) {
  return {
    bulkUpdate: (async (rc) => accepted(await service.bulk.submit(rc.ctx, rc.body()))) satisfies RouteHandler,
    getBulk: (async (rc) => ok(await service.bulk.get(rc.ctx, rc.params.id!))) satisfies RouteHandler,
    getBulkItems: (async (rc) => ok(await service.bulk.items(rc.ctx, rc.params.id!, rc.query))) satisfies RouteHandler,
    list: (async (rc) => ok(await service.list(rc.ctx, rc.query))) satisfies RouteHandler,
    create: (async (rc) => withEtag(await service.create(rc.ctx, rc.body()), 201)) satisfies RouteHandler,
    get: (async (rc) => withEtag(await service.get(rc.ctx, rc.params.id!))) satisfies RouteHandler,
    update: (async (rc) => withEtag(await service.update(rc.ctx, rc.params.id!, rc.body(), rc.preconditions))) satisfies RouteHandler,
    delete: (async (rc) => {
      await service.delete(rc.ctx, rc.params.id!, rc.preconditions);
      return noContent();
    }) satisfies RouteHandler,
    facilitators: (async (rc) => withEtag(await service.facilitators(rc.ctx, rc.params.id!))) satisfies RouteHandler,
    replaceFacilitators: (async (rc) =>
      withEtag(await service.replaceFacilitators(rc.ctx, rc.params.id!, rc.body()))) satisfies RouteHandler,
  };
}

export function eventRoutes(routes: RouteTable, lectern: Lectern): void {
  const events = eventLikeHandlers(lectern.scheduledEvents);
  routes
    .patch('/api/v2/events/bulk', events.bulkUpdate)
    .get('/api/v2/events/bulk/:id', events.getBulk)
    .get('/api/v2/events/bulk/:id/items', events.getBulkItems)
    .get('/api/v2/events', events.list)
    .post('/api/v2/events', events.create)
    .get('/api/v2/events/:id', events.get)
    .patch('/api/v2/events/:id', events.update)
    .delete('/api/v2/events/:id', events.delete)
    .get('/api/v2/events/:id/facilitators', events.facilitators)
    .put('/api/v2/events/:id/facilitators', events.replaceFacilitators);

  const series = eventLikeHandlers(lectern.eventSeries);
  routes
    .patch('/api/v2/event-series/bulk', series.bulkUpdate)
    .get('/api/v2/event-series/bulk/:id', series.getBulk)
    .get('/api/v2/event-series/bulk/:id/items', series.getBulkItems)
    .get('/api/v2/event-series', series.list)
    .post('/api/v2/event-series', series.create)
    .get('/api/v2/event-series/:id', series.get)
    .patch('/api/v2/event-series/:id', series.update)
    .delete('/api/v2/event-series/:id', series.delete)
    .get('/api/v2/event-series/:id/facilitators', series.facilitators)
    .put('/api/v2/event-series/:id/facilitators', series.replaceFacilitators);
}
