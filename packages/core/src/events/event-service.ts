import type { RequestContext } from '../auth/actor.ts';
import type { Waitlist } from '../enrollments/waitlist.ts';
import type { JobEngine } from '../jobs/job-engine.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { InputOf } from '../shared/validation.ts';
import {
  bulkEventItemInput,
  createEventInput,
  eventListSpec,
  eventViewOf,
  limitFields,
  updateEventInput,
  type EventRecord,
  type EventView,
  type EventWrite,
} from './event.ts';
import { inheritFromSeries, seriesTemplateOf } from './event-inheritance.ts';
import { contentWriteOf, settingsChanges, type EventItems } from './event-items.ts';
import { EventLikeService } from './event-like-service.ts';
import { plannedTimeslot, scheduleTimeslots, totalMinutes } from './timeslot.ts';

/**
 * `/events/`: scheduled occurrences, each with at least one timeslot. Creation applies the series
 * inheritance once (event-inheritance.ts); PATCH changes exactly the fields sent.
 */
export class EventService extends EventLikeService<EventView, EventWrite, typeof updateEventInput, typeof bulkEventItemInput, 'events'> {
  constructor(
    deps: ServiceDeps,
    items: EventItems,
    jobs: JobEngine,
    private readonly waitlist: Waitlist,
  ) {
    super(deps, items, jobs, {
      kind: 'event',
      jobKind: 'events',
      listSpec: eventListSpec,
      view: eventViewOf,
      updateInput: updateEventInput,
      bulkItemInput: bulkEventItemInput,
    });
  }

  create(ctx: RequestContext, body: InputOf<typeof createEventInput>): Promise<EventView> {
    return this.createWith(ctx, createEventInput, body, async (tx, input) => {
      const series = input.event_series_id ? await this.items.requireSeries(tx, ctx.actor, input.event_series_id) : null;
      const event = inheritFromSeries(input, series && seriesTemplateOf(series));
      const location = await this.items.requireLocation(tx, event.settings.location_id);
      const schedule = scheduleTimeslots(event.timeslots, location?.timezone ?? null);
      const content = {
        name: input.name,
        description: input.description,
        tags: event.tags,
        channel_id: event.channelId,
        is_hidden: event.is_hidden,
      };
      return this.items.insert(
        tx,
        ctx,
        'event',
        contentWriteOf(content, totalMinutes(schedule.slots)),
        { ...event.settings, seriesId: series?.id ?? null, span: schedule.span },
        event.facilitators,
        schedule.slots,
      );
    });
  }

  /**
   * Only the fields sent change. New timeslots replace the whole set; a new location with another
   * zone keeps each timeslot's wall clock (what the organiser announced) and moves its instants.
   */
  protected applyUpdate(tx: Stores, ctx: RequestContext, current: EventRecord, input: EventWrite): Promise<EventRecord> {
    const actor = ctx.actor;
    return this.items.update(tx, ctx, current, async () => {
      const seriesId =
        input.event_series_id === undefined || input.event_series_id === null
          ? input.event_series_id
          : (await this.items.requireSeries(tx, actor, input.event_series_id)).id;
      const location = input.location_id === undefined ? current.location : await this.items.requireLocation(tx, input.location_id);
      const zone = location?.timezone ?? null;
      const schedule = input.timeslots
        ? scheduleTimeslots(
            input.timeslots.map((slot) => plannedTimeslot(slot, slot.duration!)),
            zone,
          )
        : zone !== (current.location?.timezone ?? null)
          ? scheduleTimeslots(current.timeslots, zone)
          : null;
      // a re-timed slot keeps its id; replaced slots are new
      const slots =
        schedule && (input.timeslots ? schedule.slots : schedule.slots.map((slot, i) => ({ ...slot, id: current.timeslots[i]!.id })));

      await this.items.writeContent(tx, current, contentWriteOf(input, schedule ? totalMinutes(schedule.slots) : undefined));
      await tx.events.updateDetails(current.id, {
        ...settingsChanges(input),
        ...(seriesId !== undefined ? { seriesId } : {}),
        ...(schedule ? { span: schedule.span } : {}),
      });
      if (slots) await tx.events.saveTimeslots(current.id, slots);
      // a raised limit (or one set to 0, unlimited) frees seats: the wait list takes them now
      if (limitFields.some((field) => input[field] !== undefined)) {
        await this.waitlist.fillFreedSeats(tx, ctx, { id: current.id, settings: { ...current.settings, ...settingsChanges(input) } });
      }
    });
  }
}
