import {
  bulkEventItemInput,
  bulkSeriesItemInput,
  createEventInput,
  createSeriesInput,
  eventListSpec,
  eventViewSchema,
  facilitatorsInput,
  facilitatorsSchema,
  MAX_BULK_EVENT_UPDATES,
  seriesListSpec,
  seriesViewSchema,
  updateEventInput,
  updateSeriesInput,
  type EventSeriesService,
  type EventService,
  type Lectern,
  type ListSpec,
} from '@lectern/core';
import type { z } from 'zod';
import { bulkBody, resource, type OperationSpec } from '../operation-spec.ts';
import { accepted, noContent, ok, withEtag } from '../reply.ts';
import type { RouteHandler, RouteTable } from '../router.ts';

type ById = RouteHandler<{ readonly id: string }>;

interface EventLikeSchemas {
  tag: string;
  view: z.ZodType;
  create: z.ZodType;
  update: z.ZodType;
  list: ListSpec;
  bulkUpdate: z.ZodType;
}

/** What `/events/` and `/event-series/` both do and declare; each service supplies its own shape and rules. */
function eventLikeRoutes(service: EventService | EventSeriesService, schemas: EventLikeSchemas) {
  const spec = resource(schemas.tag, 'events:read', schemas.view);
  const facilitators = spec.get('The facilitators', facilitatorsSchema, true);
  const replaceFacilitators: OperationSpec = {
    ...spec.write('Replace the facilitators', facilitatorsInput),
    response: { status: 200, schema: facilitatorsSchema, etag: true },
  };
  return {
    bulkUpdate: [
      spec.bulk('Update in bulk (a job)', schemas.bulkUpdate),
      (async (rc) => accepted(await service.bulk.submit(rc.ctx, rc.body()))) satisfies RouteHandler,
    ] as const,
    getBulk: [spec.job('A bulk update job'), (async (rc) => ok(await service.bulk.get(rc.ctx, rc.params.id))) satisfies ById] as const,
    getBulkItems: [
      spec.jobItems('The per-item results of a bulk update job'),
      (async (rc) => ok(await service.bulk.items(rc.ctx, rc.params.id, rc.query))) satisfies ById,
    ] as const,
    list: [
      spec.list(`List ${schemas.tag.toLowerCase()}`, schemas.list),
      (async (rc) => ok(await service.list(rc.ctx, rc.query))) satisfies RouteHandler,
    ] as const,
    create: [
      spec.write('Create', schemas.create, 201),
      (async (rc) => withEtag(await service.create(rc.ctx, rc.body()), 201)) satisfies RouteHandler,
    ] as const,
    get: [spec.get('Get one'), (async (rc) => withEtag(await service.get(rc.ctx, rc.params.id))) satisfies ById] as const,
    update: [
      spec.write('Update', schemas.update),
      (async (rc) => withEtag(await service.update(rc.ctx, rc.params.id, rc.body(), rc.preconditions))) satisfies ById,
    ] as const,
    delete: [
      spec.write('Delete', undefined, 204, null),
      (async (rc) => {
        await service.delete(rc.ctx, rc.params.id, rc.preconditions);
        return noContent();
      }) satisfies ById,
    ] as const,
    facilitators: [facilitators, (async (rc) => withEtag(await service.facilitators(rc.ctx, rc.params.id))) satisfies ById] as const,
    replaceFacilitators: [
      replaceFacilitators,
      (async (rc) => withEtag(await service.replaceFacilitators(rc.ctx, rc.params.id, rc.body()))) satisfies ById,
    ] as const,
  };
}

const eventSchemas: EventLikeSchemas = {
  tag: 'Events',
  view: eventViewSchema,
  create: createEventInput,
  update: updateEventInput,
  list: eventListSpec,
  bulkUpdate: bulkBody('EventBulkUpdate', 'events', MAX_BULK_EVENT_UPDATES, bulkEventItemInput),
};
const seriesSchemas: EventLikeSchemas = {
  tag: 'Event series',
  view: seriesViewSchema,
  create: createSeriesInput,
  update: updateSeriesInput,
  list: seriesListSpec,
  bulkUpdate: bulkBody('EventSeriesBulkUpdate', 'event_series', MAX_BULK_EVENT_UPDATES, bulkSeriesItemInput),
};

export function eventRoutes(routes: RouteTable, lectern: Lectern): void {
  const events = eventLikeRoutes(lectern.scheduledEvents, eventSchemas);
  routes
    .patch('/api/v2/events/bulk', ...events.bulkUpdate)
    .get('/api/v2/events/bulk/:id', ...events.getBulk)
    .get('/api/v2/events/bulk/:id/items', ...events.getBulkItems)
    .get('/api/v2/events', ...events.list)
    .post('/api/v2/events', ...events.create)
    .get('/api/v2/events/:id', ...events.get)
    .patch('/api/v2/events/:id', ...events.update)
    .delete('/api/v2/events/:id', ...events.delete)
    .get('/api/v2/events/:id/facilitators', ...events.facilitators)
    .put('/api/v2/events/:id/facilitators', ...events.replaceFacilitators);

  const series = eventLikeRoutes(lectern.eventSeries, seriesSchemas);
  routes
    .patch('/api/v2/event-series/bulk', ...series.bulkUpdate)
    .get('/api/v2/event-series/bulk/:id', ...series.getBulk)
    .get('/api/v2/event-series/bulk/:id/items', ...series.getBulkItems)
    .get('/api/v2/event-series', ...series.list)
    .post('/api/v2/event-series', ...series.create)
    .get('/api/v2/event-series/:id', ...series.get)
    .patch('/api/v2/event-series/:id', ...series.update)
    .delete('/api/v2/event-series/:id', ...series.delete)
    .get('/api/v2/event-series/:id/facilitators', ...series.facilitators)
    .put('/api/v2/event-series/:id/facilitators', ...series.replaceFacilitators);
}
