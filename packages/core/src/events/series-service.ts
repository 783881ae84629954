import type { RequestContext } from '../auth/actor.ts';
import type { JobEngine } from '../jobs/job-engine.ts';
import type { Stores } from '../ports/storage.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { InputOf } from '../shared/validation.ts';
import {
  bulkSeriesItemInput,
  createSeriesInput,
  seriesListSpec,
  seriesViewOf,
  updateSeriesInput,
  type EventRecord,
  type SeriesView,
  type SeriesWrite,
} from './event.ts';
import { STANDALONE_DEFAULTS } from './event-inheritance.ts';
import { contentWriteOf, settingsChanges, type EventItems } from './event-items.ts';
import { EventLikeService } from './event-like-service.ts';
import { resolveFacilitators } from './resolve-facilitators.ts';

/**
 * `/event-series/`: the templates events are scheduled from (content type `event_type`). A series
 * has no timeslots or enrollments of its own; its edits never reach existing events (rule 5), and
 * deleting it leaves its events, which read `event_series: null` from then on (docs/events.md).
 */
export class EventSeriesService extends EventLikeService<
  SeriesView,
  SeriesWrite,
  typeof updateSeriesInput,
  typeof bulkSeriesItemInput,
  'event_series'
> {
  constructor(deps: ServiceDeps, items: EventItems, jobs: JobEngine) {
    super(deps, items, jobs, {
      kind: 'event_type',
      jobKind: 'event_series',
      listSpec: seriesListSpec,
      view: seriesViewOf,
      updateInput: updateSeriesInput,
      bulkItemInput: bulkSeriesItemInput,
    });
  }

  create(ctx: RequestContext, body: InputOf<typeof createSeriesInput>): Promise<SeriesView> {
    return this.createWith(ctx, createSeriesInput, body, async (tx, input) => {
      await this.items.requireLocation(tx, input.location_id ?? null);
      const facilitators = input.facilitators ? await resolveFacilitators(tx, input.facilitators, 'facilitators.') : [];
      return this.items.insert(
        tx,
        ctx,
        'event_type',
        contentWriteOf(input, input.duration ?? 0),
        { ...STANDALONE_DEFAULTS.settings, ...settingsChanges(input), seriesId: null, span: null },
        facilitators,
      );
    });
  }

  protected applyUpdate(tx: Stores, ctx: RequestContext, current: EventRecord, input: SeriesWrite): Promise<EventRecord> {
    return this.items.update(tx, ctx, current, async () => {
      if (input.location_id !== undefined) await this.items.requireLocation(tx, input.location_id);
      await this.items.writeContent(tx, current, contentWriteOf(input, input.duration));
      await tx.events.updateDetails(current.id, settingsChanges(input));
      if (input.facilitators) {
        await tx.events.setFacilitators(current.id, await resolveFacilitators(tx, input.facilitators, 'facilitators.'));
      }
    });
  }
}
