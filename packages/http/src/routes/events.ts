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
  type EventService,
  type BulkJobs,
  type Lectern,
  type QueryParams,
  type RequestContext,
  type ListSpec,
} from '@lectern/core';
import type { z } from 'zod';
import { bulkBody, resource } from '../operation-spec.ts';
import { noContent, ok, withEtag } from '../reply.ts';
import { sharedRoute, sharedRouteById, type RouteTable } from '../router.ts';
import { bulkJobRoutes } from './bulk-job-routes.ts';

/** What the event and the series services both offer the routes below, each with its own inputs. */
interface EventLikeRouteService<Create, Update, Bulk> {
  create(ctx: RequestContext, body: Create): Promise<unknown>;
  update(ctx: RequestContext, publicId: string, body: Update, options: { ifMatch?: string | undefined }): Promise<unknown>;
  bulk: BulkJobs<Bulk>;
  list(ctx: RequestContext, params: QueryParams): Promise<unknown>;
  get(ctx: RequestContext, publicId: string): Promise<unknown>;
  delete(ctx: RequestContext, publicId: string, options: { ifMatch?: string | undefined }): Promise<void>;
  facilitators: EventService['facilitators'];
  replaceFacilitators: EventService['replaceFacilitators'];
}

interface EventLikeSchemas<Create, Update, Bulk> {
  tag: string;
  view: z.ZodType;
  create: z.ZodType<unknown, Create>;
  update: z.ZodType<unknown, Update>;
  list: ListSpec;
  bulkUpdate: z.ZodType<unknown, Bulk>;
}

/** What `/events/` and `/event-series/` both do and declare; each service supplies its own shape and rules. */
function eventLikeRoutes<Create, Update, Bulk>(
  service: EventLikeRouteService<Create, Update, Bulk>,
  schemas: EventLikeSchemas<Create, Update, Bulk>,
) {
  const spec = resource(schemas.tag, 'events:read', schemas.view);
  const facilitators = spec.get('The facilitators', facilitatorsSchema, true);
  const replaceFacilitators = {
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
    get: sharedRouteById(spec.get('Get one'), async (rc) => withEtag(await service.get(rc.ctx, rc.params.id))),
    update: sharedRouteById(spec.write('Update', schemas.update), async (rc) =>
      withEtag(await service.update(rc.ctx, rc.params.id, rc.body(), rc.preconditions)),
    ),
    delete: sharedRouteById(spec.write('Delete', undefined, 204, null), async (rc) => {
      await service.delete(rc.ctx, rc.params.id, rc.preconditions);
      return noContent();
    }),
    facilitators: sharedRouteById(facilitators, async (rc) => withEtag(await service.facilitators(rc.ctx, rc.params.id))),
    replaceFacilitators: sharedRouteById(replaceFacilitators, async (rc) =>
      withEtag(await service.replaceFacilitators(rc.ctx, rc.params.id, rc.body())),
    ),
  };
}

const eventSchemas = {
  tag: 'Events',
  view: eventViewSchema,
  create: createEventInput,
  update: updateEventInput,
  list: eventListSpec,
  bulkUpdate: bulkBody('EventBulkUpdate', 'events', MAX_BULK_EVENT_UPDATES, bulkEventItemInput),
};
const seriesSchemas = {
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
