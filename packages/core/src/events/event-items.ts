/**
 * What events and event series share: they are content items (written through ContentService's
 * building blocks, so content lists, tags, archive and the generic webhook family just work) with
 * event details, facilitators and, for events, timeslots beside the content row.
 */
import { fieldChanges } from '../audit/audit-diff.ts';
import type { Actor, RequestContext } from '../auth/actor.ts';
import type { ContentWrite } from '../content/content-item.ts';
import { viewerFor } from '../content/content-rules.ts';
import type { ContentWrites, TypedView } from '../content/content-writes.ts';
import { everyItem } from '../ports/content-store.ts';
import type { EventDetailsRow, TimeslotRow } from '../ports/event-store.ts';
import type { Stores } from '../ports/storage.ts';
import { fieldError, notFound } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { parseListQuery, toListResult, type ListResult, type ListSpec, type QueryParams } from '../shared/list-query.ts';
import { parseInput } from '../shared/validation.ts';
import { typeViewOf } from '../content/content-item.ts';
import { eventSettingsSchema, viewOf, type EventKind, type EventRecord, type EventSettings } from './event.ts';
import { facilitatorsInput, facilitatorsView, type Facilitators, type FacilitatorRole } from './facilitators.ts';
import { resolveFacilitators } from './resolve-facilitators.ts';
import type { Location } from './location.ts';
import type { ListNarrowing } from '../ports/list-narrowing.ts';
import type { NotificationRecorder } from '../notifications/notification-recorder.ts';

const NOUN: Record<EventKind, string> = { event: 'Event', event_type: 'Event series' };

/** The body fields that live on the content row, under the names ContentService takes. */
export interface EventContentFields {
  name?: string;
  description?: string;
  tags?: string[];
  channel_id?: string | null;
  is_hidden?: boolean;
}

export function contentWriteOf(input: EventContentFields, durationMinutes?: number): ContentWrite {
  const write: ContentWrite = {};
  for (const key of ['name', 'description', 'tags', 'channel_id', 'is_hidden'] as const) {
    if (input[key] !== undefined) Object.assign(write, { [key]: input[key] });
  }
  if (durationMinutes !== undefined) write.duration = durationMinutes;
  return write;
}

const settingKeys = Object.keys(eventSettingsSchema.shape) as Array<keyof EventSettings>;

/** The settings a body sends, ready for EventStore.updateDetails. */
export function settingsChanges(input: Partial<Record<keyof EventSettings, unknown>>): Partial<EventSettings> {
  return Object.fromEntries(settingKeys.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]));
}

export class EventItems {
  constructor(
    private readonly content: ContentWrites,
    /** tells enrolled and waitlisted users of a new time or place, or of the event's deletion */
    private readonly notifications?: NotificationRecorder,
  ) {}

  /** The `event.*` / `event_type.*` payload for whichever path changed the item (registered with ContentService). */
  readonly typedView: TypedView = async (stores, record) => {
    const stored = await stores.events.findById(record.id, everyItem);
    return stored ? viewOf(stored) : typeViewOf(record);
  };

  async list<V>(
    stores: Stores,
    actor: Actor,
    kind: EventKind,
    spec: ListSpec,
    params: QueryParams,
    view: (r: EventRecord) => V,
    narrowing: ListNarrowing = {},
  ): Promise<ListResult<V>> {
    const query = parseListQuery(spec, params);
    return toListResult(query, await stores.events.list(query, kind, viewerFor(actor), narrowing), view);
  }

  /** An event or series the actor may see; anything else is 404 so nothing leaks. */
  async require(stores: Stores, actor: Actor, publicId: string, kind: EventKind): Promise<EventRecord> {
    const record = isUuid(publicId) ? await stores.events.findByPublicId(publicId, kind, viewerFor(actor)) : undefined;
    if (!record) throw notFound(NOUN[kind]);
    return record;
  }

  /** A series named by a write (422 on `event_series_id` when it names none the actor may see). */
  async requireSeries(tx: Stores, actor: Actor, publicId: string): Promise<EventRecord> {
    const series = await tx.events.findByPublicId(publicId, 'event_type', viewerFor(actor));
    if (!series) throw fieldError('event_series_id', 'No event series has this public_id.');
    return series;
  }

  /** The location a write names (422 on `location_id` when it names none); null for none. */
  async requireLocation(tx: Stores, id: number | null): Promise<Location | null> {
    if (id === null) return null;
    const location = await tx.locations.findById(id);
    if (!location) throw fieldError('location_id', 'No location has this id.');
    return location;
  }

  /** Creates the content item with its details, facilitators and timeslots, and records `created`. */
  async insert(
    tx: Stores,
    ctx: RequestContext,
    kind: EventKind,
    content: ContentWrite,
    details: EventDetailsRow,
    facilitators: ReadonlyArray<{ userId: number; role: FacilitatorRole }>,
    timeslots: readonly TimeslotRow[] = [],
  ): Promise<EventRecord> {
    const item = await this.content.insertItem(tx, kind, content);
    await tx.events.insertDetails(item.id, details);
    if (facilitators.length > 0) await tx.events.setFacilitators(item.id, facilitators);
    if (timeslots.length > 0) await tx.events.saveTimeslots(item.id, timeslots);
    await this.content.recordLifecycle(tx, ctx, 'created', item);
    return (await tx.events.findById(item.id, everyItem))!;
  }

  /**
   * Runs `write` against `current`, then, when the representation changed, stamps `modified` and
   * records `content_item.updated` and the typed event. A write that changes nothing fires nothing.
   */
  async update(tx: Stores, ctx: RequestContext, current: EventRecord, write: () => Promise<void>): Promise<EventRecord> {
    await write();
    const written = (await tx.events.findById(current.id, everyItem))!;
    const changes = fieldChanges(viewOf(current), viewOf(written));
    if (changes === null) return written;
    await tx.events.raiseCalendarSequence(current.id);
    await this.content.markChanged(tx, ctx, current.id, 'updated', changes);
    const updated = (await tx.events.findById(current.id, everyItem))!;
    if (current.kind === 'event') await this.notifications?.eventChanged(tx, current, updated);
    return updated;
  }

  /** Writes the content-row fields of a body; the rest is the caller's. */
  writeContent(tx: Stores, current: EventRecord, content: ContentWrite): Promise<void> {
    return Object.keys(content).length > 0 ? this.content.writeItem(tx, current.content, content) : Promise.resolve();
  }

  async remove(tx: Stores, ctx: RequestContext, current: EventRecord): Promise<void> {
    // the cancellation calendar clients receive must outrank the last version they hold
    await tx.events.raiseCalendarSequence(current.id);
    if (current.kind === 'event' && this.notifications?.enabled) {
      await this.notifications.eventDeleted(tx, (await tx.events.findById(current.id, everyItem))!);
    }
    await this.content.removeItem(tx, ctx, current.content);
  }

  /** `PUT …/facilitators/`: replaces all three roles. */
  async replaceFacilitators(tx: Stores, ctx: RequestContext, current: EventRecord, body: unknown): Promise<Facilitators> {
    const input = parseInput(facilitatorsInput, body);
    const updated = await this.update(tx, ctx, current, async () => {
      await tx.events.setFacilitators(current.id, await resolveFacilitators(tx, input));
    });
    return facilitatorsView(updated.facilitators);
  }
}
