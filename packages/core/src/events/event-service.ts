import { authorize, type Actor, type RequestContext } from '../auth/actor.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { assertIfMatch } from '../shared/etag.ts';
import type { ListResult, QueryParams } from '../shared/list-query.ts';
import { parseInput } from '../shared/validation.ts';
import type { WriteOptions } from '../users/user-service.ts';
import { bulkEventItemInput, createEventInput, eventListSpec, eventViewOf, updateEventInput, type EventRecord, type EventView, type EventWrite } from './event.ts';
import { inheritFromSeries, seriesTemplateOf } from './event-inheritance.ts';
import { contentWriteOf, settingsChanges, type EventItems } from './event-items.ts';
import { facilitatorsView, type Facilitators } from './facilitators.ts';
import { plannedTimeslot, scheduleTimeslots, totalMinutes } from './timeslot.ts';

/**
 * `/events/`: scheduled occurrences, each with at least one timeslot. Creation applies the series
 * inheritance once (event-inheritance.ts); PATCH changes exactly the fields sent.
 */
export class EventService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly items: EventItems,
  ) {}

  async list(ctx: RequestContext, params: QueryParams): Promise<ListResult<EventView>> {
    authorize(ctx.actor, 'events:read');
    return this.items.list(this.deps.storage, ctx.actor, 'event', eventListSpec, params, eventViewOf);
  }

  async get(ctx: RequestContext, publicId: string): Promise<EventView> {
    authorize(ctx.actor, 'events:read');
    return eventViewOf(await this.items.require(this.deps.storage, ctx.actor, publicId, 'event'));
  }

  async create(ctx: RequestContext, body: unknown): Promise<EventView> {
    authorize(ctx.actor, 'events:write');
    const input = parseInput(createEventInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const series = input.event_series_id ? await this.items.requireSeries(tx, ctx.actor, input.event_series_id) : null;
      const event = inheritFromSeries(input, series && seriesTemplateOf(series));
      const location = await this.items.requireLocation(tx, event.settings.location_id);
      const schedule = scheduleTimeslots(event.timeslots, location?.timezone ?? null);
      const content = { name: input.name, description: input.description, tags: event.tags, channel_id: event.channelId, is_hidden: event.is_hidden };
      const record = await this.items.insert(
        tx,
        'event',
        contentWriteOf(content, totalMinutes(schedule.slots)),
        { ...event.settings, seriesId: series?.id ?? null, span: schedule.span },
        event.facilitators,
        schedule.slots,
      );
      return eventViewOf(record);
    });
  }

  async update(ctx: RequestContext, publicId: string, body: unknown, options: WriteOptions = {}): Promise<EventView> {
    authorize(ctx.actor, 'events:write');
    const input = parseInput(updateEventInput, body);
    return this.deps.storage.transaction(async (tx) => {
      const current = await this.items.require(tx, ctx.actor, publicId, 'event');
      assertIfMatch(options.ifMatch, eventViewOf(current));
      return eventViewOf(await this.applyUpdate(tx, ctx.actor, current, input));
    });
  }

  async delete(ctx: RequestContext, publicId: string, options: WriteOptions = {}): Promise<void> {
    authorize(ctx.actor, 'events:write');
    await this.deps.storage.transaction(async (tx) => {
      const current = await this.items.require(tx, ctx.actor, publicId, 'event');
      assertIfMatch(options.ifMatch, eventViewOf(current));
      await this.items.remove(tx, current);
    });
  }

  async facilitators(ctx: RequestContext, publicId: string): Promise<Facilitators> {
    authorize(ctx.actor, 'events:read');
    return facilitatorsView((await this.items.require(this.deps.storage, ctx.actor, publicId, 'event')).facilitators);
  }

  async replaceFacilitators(ctx: RequestContext, publicId: string, body: unknown): Promise<Facilitators> {
    authorize(ctx.actor, 'events:write');
    return this.deps.storage.transaction(async (tx) =>
      this.items.replaceFacilitators(tx, await this.items.require(tx, ctx.actor, publicId, 'event'), body),
    );
  }

  /**
   * One item of `PATCH /events/bulk/`, run by the job engine inside the transaction it gives the
   * item: throws (422/404/…) for an item that fails, which the job counts and moves past.
   */
  async bulkUpdateItem(tx: Stores, actor: Actor, item: unknown): Promise<void> {
    // `timeslots` never survives the schema; it is only there to refuse it with a clear message
    const { public_id: publicId, timeslots: _refused, ...input } = parseInput(bulkEventItemInput, item);
    await this.applyUpdate(tx, actor, await this.items.require(tx, actor, publicId, 'event'), input);
  }

  /**
   * Only the fields sent change. New timeslots replace the whole set; a new location with another
   * zone keeps each timeslot's wall clock (what the organiser announced) and moves its instants.
   */
  private applyUpdate(tx: Stores, actor: Actor, current: EventRecord, input: EventWrite): Promise<EventRecord> {
    return this.items.update(tx, current, async () => {
      const seriesId =
        input.event_series_id === undefined || input.event_series_id === null
          ? input.event_series_id
          : (await this.items.requireSeries(tx, actor, input.event_series_id)).id;
      const location = input.location_id === undefined ? current.location : await this.items.requireLocation(tx, input.location_id);
      const zone = location?.timezone ?? null;
      const schedule = input.timeslots
        ? scheduleTimeslots(input.timeslots.map((slot) => plannedTimeslot(slot, slot.duration!)), zone)
        : zone !== (current.location?.timezone ?? null)
          ? scheduleTimeslots(current.timeslots, zone)
          : null;
      // a re-timed slot keeps its id; replaced slots are new
      const slots = schedule && (input.timeslots ? schedule.slots : schedule.slots.map((slot, i) => ({ ...slot, id: current.timeslots[i]!.id })));

      await this.items.writeContent(tx, current, contentWriteOf(input, schedule ? totalMinutes(schedule.slots) : undefined));
      await tx.events.updateDetails(current.id, {
        ...settingsChanges(input),
        ...(seriesId !== undefined ? { seriesId } : {}),
        ...(schedule ? { span: schedule.span } : {}),
      });
      if (slots) await tx.events.saveTimeslots(current.id, slots);
    });
  }
}
