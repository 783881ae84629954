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
import { noContent, ok, withEtag } from '../reply.ts';
import { sharedRoute, type RouteTable } from '../router.ts';
import { bulkJobRoutes } from './bulk-job-routes.ts';

type ById = { readonly id: string };

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
    ...bulkJobRoutes(spec, service.bulk, schemas.bulkUpdate, {
      submit: 'Update in bulk (a job)',
      job: 'A bulk update job',
      items: 'The per-item results of a bulk update job',
    }),
    list: sharedRoute(spec.list(`List ${schemas.tag.toLowerCase()}`, schemas.list), async (rc) => ok(await service.list(rc.ctx, rc.query))),
    create: sharedRoute(spec.write('Create', schemas.create, 201), async (rc) => withEtag(await service.create(rc.ctx, rc.body()), 201)),
    get: sharedRoute<ById>(spec.get('Get one'), async (rc) => withEtag(await service.get(rc.ctx, rc.params.id))),
    update: sharedRoute<ById>(spec.write('Update', schemas.update), async (rc) =>
      withEtag(await service.update(rc.ctx, rc.params.id, rc.body(), rc.preconditions)),
    ),
    delete: sharedRoute<ById>(spec.write('Delete', undefined, 204, null), async (rc) => {
      await service.delete(rc.ctx, rc.params.id, rc.preconditions);
      return noContent();
    }),
    facilitators: sharedRoute<ById>(facilitators, async (rc) => withEtag(await service.facilitators(rc.ctx, rc.params.id))),
    replaceFacilitators: sharedRoute<ById>(replaceFacilitators, async (rc) =>
      withEtag(await service.replaceFacilitators(rc.ctx, rc.params.id, rc.body())),
    ),
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
    .patch('/api/v2/events/bulk', ...events.submit)
    .get('/api/v2/events/bulk/:id', ...events.job)
    .get('/api/v2/events/bulk/:id/items', ...events.items)
    .get('/api/v2/events', ...events.list)
    .post('/api/v2/events', ...events.create)
    .get('/api/v2/events/:id', ...events.get)
    .patch('/api/v2/events/:id', ...events.update)
    .delete('/api/v2/events/:id', ...events.delete)
    .get('/api/v2/events/:id/facilitators', ...events.facilitators)
    .put('/api/v2/events/:id/facilitators', ...events.replaceFacilitators);

  const series = eventLikeRoutes(lectern.eventSeries, seriesSchemas);
  routes
    .patch('/api/v2/event-series/bulk', ...series.submit)
    .get('/api/v2/event-series/bulk/:id', ...series.job)
    .get('/api/v2/event-series/bulk/:id/items', ...series.items)
    .get('/api/v2/event-series', ...series.list)
    .post('/api/v2/event-series', ...series.create)
    .get('/api/v2/event-series/:id', ...series.get)
    .patch('/api/v2/event-series/:id', ...series.update)
    .delete('/api/v2/event-series/:id', ...series.delete)
    .get('/api/v2/event-series/:id/facilitators', ...series.facilitators)
    .put('/api/v2/event-series/:id/facilitators', ...series.replaceFacilitators);
}
