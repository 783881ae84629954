import { authorize, type Actor, type RequestContext } from '../auth/actor.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { assertIfMatch } from '../shared/etag.ts';
import type { ListResult, QueryParams } from '../shared/list-query.ts';
import { parseInput } from '../shared/validation.ts';
import type { WriteOptions } from '../users/user-service.ts';
import { bulkSeriesItemInput, createSeriesInput, seriesListSpec, seriesViewOf, updateSeriesInput, type EventRecord, type SeriesView, type SeriesWrite } from './event.ts';
import { STANDALONE_DEFAULTS } from './event-inheritance.ts';
import { contentWriteOf, settingsChanges, type EventItems } from './event-items.ts';
import { facilitatorsView, resolveFacilitators, type Facilitators } from './facilitators.ts';

/**
 * `/event-series/`: the templates events are scheduled from (content type `event_type`). A series
 * has no timeslots or enrollments of its own; its edits never reach existing events (rule 5).
 */
export class EventSeriesService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly items: EventItems,
  ) {}

  async list(ctx: RequestContext, params: QueryParams): Promise<ListResult<SeriesView>> {
    authorize(ctx.actor, 'events:read');
    return this.items.list(this.deps.storage, ctx.actor, 'event_type', seriesListSpec, params, seriesViewOf);
  }

  async get(ctx: RequestContext, publicId: string): Promise<SeriesView> {
    authorize(ctx.actor, 'events:read');
    return seriesViewOf(await this.items.require(this.deps.storage, ctx.actor, publicId, 'event_type'));
  }

  async create(ctx: RequestContext, body: unknown): Promise<SeriesView> {
    authorize(ctx.actor, 'events:write');
    const input = parseInput(createSeriesInput, body);
    return this.deps.storage.transaction(async (tx) => {
      await this.items.requireLocation(tx, input.location_id ?? null);
      const facilitators = input.facilitators ? await resolveFacilitators(tx, input.facilitators, 'facilitators.') : [];
      const record = await this.items.insert(
        tx,
        'event_type',
        contentWriteOf(input, input.duration ?? 0),
        { ...STANDALONE_DEFAULTS.settings, ...settingsChanges(input), seriesId: null, span: null },
        facilitators,
      );
      return seriesViewOf(record);
    });
  }

  async update(ctx: RequestContext, publicId: string, body: unknown, options: WriteOptions = {}): Promise<SeriesView> {
    authorize(ctx.actor, 'events:write');
    const input = parseInput(updateSeriesInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const current = await this.items.require(tx, ctx.actor, publicId, 'event_type');
      assertIfMatch(options.ifMatch, seriesViewOf(current));
      return seriesViewOf(await this.applyUpdate(tx, current, input));
    });
  }

  /** Deleting a series leaves its events; they read `event_series: null` from then on (decisions §5). */
  async delete(ctx: RequestContext, publicId: string, options: WriteOptions = {}): Promise<void> {
    authorize(ctx.actor, 'events:write');
    await this.deps.storage.transaction(async (tx) => {
      const current = await this.items.require(tx, ctx.actor, publicId, 'event_type');
      assertIfMatch(options.ifMatch, seriesViewOf(current));
      await this.items.remove(tx, current);
    });
  }

  async facilitators(ctx: RequestContext, publicId: string): Promise<Facilitators> {
    authorize(ctx.actor, 'events:read');
    return facilitatorsView((await this.items.require(this.deps.storage, ctx.actor, publicId, 'event_type')).facilitators);
  }

  async replaceFacilitators(ctx: RequestContext, publicId: string, body: unknown): Promise<Facilitators> {
    authorize(ctx.actor, 'events:write');
    return this.deps.storage.transaction(async (tx) =>
      this.items.replaceFacilitators(tx, await this.items.require(tx, ctx.actor, publicId, 'event_type'), body),
    );
  }

  /** One item of `PATCH /event-series/bulk/` (see EventService.bulkUpdateItem). */
  async bulkUpdateItem(tx: Stores, actor: Actor, item: unknown): Promise<void> {
    const { public_id: publicId, ...input } = parseInput(bulkSeriesItemInput, item);
    await this.applyUpdate(tx, await this.items.require(tx, actor, publicId, 'event_type'), input);
  }

  private applyUpdate(tx: Stores, current: EventRecord, input: SeriesWrite): Promise<EventRecord> {
    return this.items.update(tx, current, async () => {
      if (input.location_id !== undefined) await this.items.requireLocation(tx, input.location_id);
      await this.items.writeContent(tx, current, contentWriteOf(input, input.duration));
      await tx.events.updateDetails(current.id, settingsChanges(input));
      if (input.facilitators) {
        await tx.events.setFacilitators(current.id, await resolveFacilitators(tx, input.facilitators, 'facilitators.'));
      }
    });
  }
}
