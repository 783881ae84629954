import { expressionBuilder, sql, type Kysely, type Selectable } from 'kysely';
import {
  type EnrollmentCounts,
  type ContentRecord,
  type EventKind,
  type EventRecord,
  type EventView,
  eventListSpec,
  eventViewSchema,
  seriesListSpec,
  seriesViewSchema,
  type SeriesView,
  type ListQuery,
  type Page,
} from '@lectern/core';
import {
  everyItem,
  type ContentViewer,
  type EventDetailsRow,
  type EventSeats,
  type EventStore,
  type FacilitatorEntry,
  type FacilitatorRole,
  type ListNarrowing,
  type StoredTimeslot,
  type TimeslotRow,
} from '@lectern/core/ports';
import type { ContentRepository } from '../content/content-repository.ts';
import { contentResource, taggedWith } from '../content/content-resource.ts';
import { visibleTo } from '../content/content-visibility.ts';
import { narrowList, rqlColumn, rqlList } from '../listing/rql-list.ts';
import { rqlDialectOf } from '../listing/rql-to-sql.ts';
import { defineResource, readElsewhere, referenceTo } from '../listing/resource-definition.ts';
import type { ResourceOptions } from '../listing/resource-types.ts';
import type { Database, Tables } from '../schema.ts';
import type { EventDetailsTable } from '../schema/events.ts';
import { byOwner } from '../shared/by-owner.ts';
import { seatCountsOf } from '../enrollments/seat-counts.ts';
import { applyFilters, fetchPage, fromBool, toBool } from '../listing/list-builder.ts';
import type { Condition } from '../listing/list-definition.ts';

/**
 * An event list's tables: the content item (`ci`) and its details (`ed`), joined before filtering
 * (items()); its reads join the series (`s`), location (`l`) and channel (`ch`).
 */
type EventTables = { ci: 'content_items'; ed: 'event_details' };
type EventJoins = { s: 'content_items'; l: 'locations'; ch: 'channels' };

/** A report's list fields, correlated with the event of the list's row. */
const reportEb = expressionBuilder<Tables<EventTables>, 'ci'>();
const slotsOfEvent = reportEb.selectFrom('event_timeslots as rts').select('rts.id').whereRef('rts.event_id', '=', 'ci.id');
/** A timeslot's `duration` as the view writes it (formatDurationMinutes): PT0M, PT45M, PT2H, PT1H30M. */
const slotDuration = sql<string>`(CASE WHEN rts.duration_minutes = 0 THEN 'PT0M' ELSE 'PT'
  || (CASE WHEN rts.duration_minutes >= 60 THEN (rts.duration_minutes / 60) || 'H' ELSE '' END)
  || (CASE WHEN rts.duration_minutes % 60 > 0 THEN (rts.duration_minutes % 60) || 'M' ELSE '' END) END)`;

const contentRql = contentResource.rql();

/**
 * Events and series as lists and reports read them, from core's view schemas: the content item
 * (`ci`) with its details (`ed`), series (`s`), location (`l`) and channel (`ch`). Their records are
 * assembled from the content record, the details and the relations (records() below), so only
 * the list and report SQL derive from here.
 */
const eventOptions = {
  table: 'content_items',
  alias: 'ci',
  internal: { id: 'ci.id' },
  fieldsOn: {
    ed: [
      'starts_at',
      'ends_at',
      'starts_at_utc',
      'ends_at_utc',
      'location_id',
      'is_local',
      'is_online',
      'enrollment_limit',
      'wait_list_limit',
      'online_enrollment_limit',
      'online_wait_list_limit',
      'body_markdown',
      'external_link',
      'external_link_description',
      'cover_url',
    ],
  },
  fields: { starts_at: { sort: 'ed.starts_at_utc' }, duration: { column: 'ci.duration_minutes' } },
  references: {
    // a deleted series no longer names its events (docs/events.md), as in records()
    event_series: {
      alias: 's',
      key: 'ed.series_id',
      table: 'content_items',
      join: (query) =>
        query.leftJoin('content_items as s', (join) => join.onRef('s.id', '=', 'ed.series_id').on('s.deleted_at', 'is', null)),
    },
    channel: referenceTo('channels', 'ch', 'ci.channel_id', 'left'),
  },
  joins: { l: (query) => query.leftJoin('locations as l', 'l.id', 'ed.location_id') },
  rql: {
    tags: contentRql.tags!,
    'timeslots.starts_at': rqlList(slotsOfEvent, 'rts.starts_at'),
    'timeslots.ends_at': rqlList(slotsOfEvent, 'rts.ends_at'),
    'timeslots.starts_at_utc': rqlList(slotsOfEvent, 'rts.starts_at_utc'),
    'timeslots.ends_at_utc': rqlList(slotsOfEvent, 'rts.ends_at_utc'),
    'timeslots.duration': rqlList(slotsOfEvent, slotDuration),
    'timeslots.rooms_info': rqlList(slotsOfEvent, 'rts.rooms_info'),
    'timeslots.watch_link': rqlList(slotsOfEvent, 'rts.watch_link'),
    'location.id': rqlColumn('l.id'),
    'location.name': rqlColumn('l.name'),
    'location.timezone': rqlColumn('l.timezone'),
  },
  filters: {
    tag: (eb, value) => taggedWith(eb, String(value)),
    event_series_id: (eb, value) =>
      eb(
        'ed.series_id',
        '=',
        eb
          .selectFrom('content_items as sf')
          .select('sf.id')
          .where('sf.public_id', '=', String(value))
          .where('sf.content_type', '=', 'event_type')
          .where('sf.deleted_at', 'is', null),
      ),
  },
  tiebreak: 'ci.id',
} satisfies ResourceOptions<EventTables, EventJoins>;

const resources = {
  event: defineResource<EventView, { id: number }, EventTables, EventJoins>(eventViewSchema, eventListSpec, eventOptions),
  event_type: defineResource<SeriesView, { id: number }, EventTables, EventJoins>(seriesViewSchema, seriesListSpec, eventOptions),
} as const;

type DetailsRow = Selectable<EventDetailsTable> & {
  series_public_id: string | null;
  series_name: string | null;
  location_name: string | null;
  location_timezone: string | null;
};

const bool = (value: boolean | undefined) => (value === undefined ? undefined : fromBool(value));

/** The settings and span of a write as columns; undefined where the write leaves them alone. */
function detailColumns(changes: Partial<EventDetailsRow>) {
  const span = changes.span;
  return Object.fromEntries(
    Object.entries({
      series_id: changes.seriesId,
      location_id: changes.location_id,
      is_local: bool(changes.is_local),
      is_online: bool(changes.is_online),
      enrollment_limit: changes.enrollment_limit,
      wait_list_limit: changes.wait_list_limit,
      online_enrollment_limit: changes.online_enrollment_limit,
      online_wait_list_limit: changes.online_wait_list_limit,
      body_markdown: changes.body_markdown,
      external_link: changes.external_link,
      external_link_description: changes.external_link_description,
      cover_url: changes.cover_url,
      starts_at: span === undefined ? undefined : (span?.starts_at ?? null),
      ends_at: span === undefined ? undefined : (span?.ends_at ?? null),
      starts_at_utc: span === undefined ? undefined : (span?.starts_at_utc ?? null),
      ends_at_utc: span === undefined ? undefined : (span?.ends_at_utc ?? null),
    }).filter(([, value]) => value !== undefined),
  );
}

export class EventRepository implements EventStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly content: ContentRepository,
  ) {}

  async insertDetails(contentId: number, row: EventDetailsRow): Promise<void> {
    await this.db
      .insertInto('event_details')
      .values({ content_id: contentId, ...detailColumns(row) } as Selectable<EventDetailsTable>)
      .execute();
  }

  async updateDetails(contentId: number, changes: Partial<EventDetailsRow>): Promise<void> {
    const columns = detailColumns(changes);
    if (Object.keys(columns).length === 0) return;
    await this.db.updateTable('event_details').set(columns).where('content_id', '=', contentId).execute();
  }

  async raiseCalendarSequence(contentId: number): Promise<void> {
    await this.db
      .updateTable('event_details')
      .set((eb) => ({ calendar_sequence: eb('calendar_sequence', '+', 1) }))
      .where('content_id', '=', contentId)
      .execute();
  }

  async saveTimeslots(eventId: number, slots: readonly TimeslotRow[]): Promise<void> {
    const kept = slots.flatMap((slot) => (slot.id === undefined ? [] : [slot.id]));
    let removal = this.db.deleteFrom('event_timeslots').where('event_id', '=', eventId);
    if (kept.length > 0) removal = removal.where('id', 'not in', kept);
    await removal.execute();
    for (const { id, ...slot } of slots) {
      if (id === undefined) continue;
      await this.db.updateTable('event_timeslots').set(slot).where('id', '=', id).where('event_id', '=', eventId).execute();
    }
    const added = slots.filter((slot) => slot.id === undefined);
    if (added.length > 0)
      await this.db
        .insertInto('event_timeslots')
        .values(added.map((slot) => ({ ...slot, event_id: eventId })))
        .execute();
  }

  async setFacilitators(contentId: number, entries: ReadonlyArray<{ userId: number; role: FacilitatorRole }>): Promise<void> {
    await this.db.deleteFrom('event_facilitators').where('content_id', '=', contentId).execute();
    if (entries.length === 0) return;
    await this.db
      .insertInto('event_facilitators')
      .values(entries.map((entry, position) => ({ content_id: contentId, role: entry.role, position, user_id: entry.userId })))
      .execute();
  }

  findById(id: number, viewer: ContentViewer): Promise<EventRecord | undefined> {
    return this.findOne((eb) => eb('ci.id', '=', id), viewer);
  }

  findByPublicId(publicId: string, kind: EventKind, viewer: ContentViewer): Promise<EventRecord | undefined> {
    return this.findOne((eb) => eb.and([eb('ci.public_id', '=', publicId), eb('ci.content_type', '=', kind)]), viewer);
  }

  async seatsByPublicIds(publicIds: readonly string[], kind: EventKind, viewer: ContentViewer): Promise<EventSeats[]> {
    if (publicIds.length === 0) return [];
    const rows = await this.items(viewer)
      .select([
        'ci.id',
        'ci.public_id',
        'ci.is_archived',
        'ed.is_local',
        'ed.is_online',
        'ed.enrollment_limit',
        'ed.wait_list_limit',
        'ed.online_enrollment_limit',
        'ed.online_wait_list_limit',
      ])
      .where('ci.public_id', 'in', publicIds)
      .where('ci.content_type', '=', kind)
      .execute();
    const counts = await seatCountsOf(
      this.db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({
      id: row.id,
      publicId: row.public_id,
      isArchived: toBool(row.is_archived),
      settings: seatSettingsOf(row),
      enrollmentCounts: counts.get(row.id)!,
    }));
  }

  /** A saved report's narrowing joins the series, location or channel only when its fields read them. */
  async list(query: ListQuery, kind: EventKind, viewer: ContentViewer, narrowing?: ListNarrowing): Promise<Page<EventRecord>> {
    const resource = resources[kind];
    const filtered = applyFilters(this.items(viewer).where('ci.content_type', '=', kind), query, resource.list());
    const narrowed = narrowList(filtered, query, resource.list(), resource.rql(), resource.joins, narrowing, rqlDialectOf(this.db));
    // the list's rows are read elsewhere (an export's on a read thread), the events by id here
    const { rows, total } = await fetchPage(
      narrowed.filtered,
      narrowed.query,
      narrowed.definition,
      (q) => q.select('ci.id'),
      readElsewhere(this.db, query),
    );
    return { total, items: await this.records(rows.map((row) => row.id)) };
  }

  /** Events and series (content with details) that `viewer` may see. */
  private items(viewer: ContentViewer) {
    return this.db
      .selectFrom('content_items as ci')
      .innerJoin('event_details as ed', 'ed.content_id', 'ci.id')
      .where((eb) => visibleTo(eb, viewer, 'ci'));
  }

  private async findOne(where: Condition<Tables<EventTables>, 'ci' | 'ed'>, viewer: ContentViewer): Promise<EventRecord | undefined> {
    const row = await this.items(viewer).select('ci.id').where(where).executeTakeFirst();
    return row ? (await this.records([row.id]))[0] : undefined;
  }

  /** Full records for ids already checked for visibility, in the same order: one query per relation (and the counts). */
  private async records(ids: readonly number[]): Promise<EventRecord[]> {
    if (ids.length === 0) return [];
    // sequential: a transaction's queries share one connection
    const contents = new Map((await this.content.findByIds(ids, everyItem)).map((record) => [record.id, record]));
    const details = await this.db
      .selectFrom('event_details as ed')
      // a deleted series no longer names its events (docs/events.md)
      .leftJoin('content_items as s', (join) => join.onRef('s.id', '=', 'ed.series_id').on('s.deleted_at', 'is', null))
      .leftJoin('locations as l', 'l.id', 'ed.location_id')
      .selectAll('ed')
      .select(['s.public_id as series_public_id', 's.name as series_name', 'l.name as location_name', 'l.timezone as location_timezone'])
      .where('ed.content_id', 'in', [...ids])
      .execute();
    const slotRows = await this.db
      .selectFrom('event_timeslots')
      .selectAll()
      .where('event_id', 'in', [...ids])
      .orderBy('event_id')
      .orderBy('starts_at_utc')
      .orderBy('id')
      .execute();
    const facilitatorRows = await this.db
      .selectFrom('event_facilitators as f')
      .innerJoin('users as u', 'u.id', 'f.user_id')
      .select(['f.content_id as owner', 'f.role', 'f.user_id', 'u.public_id', 'u.name', 'u.email'])
      .where('f.content_id', 'in', [...ids])
      .orderBy('f.content_id')
      .orderBy('f.position')
      .execute();
    const detailsById = new Map(details.map((row) => [row.content_id, row]));
    const counts = await seatCountsOf(this.db, ids);
    const slots = byOwner(
      slotRows.map(({ event_id, ...slot }) => ({ owner: event_id, slot })),
      (row): StoredTimeslot => row.slot,
    );
    const facilitators = byOwner(facilitatorRows, (row): FacilitatorEntry => ({
      userId: row.user_id,
      role: row.role as FacilitatorRole,
      user: { public_id: row.public_id, name: row.name, email: row.email },
    }));
    return ids.flatMap((id) => {
      const content = contents.get(id);
      const row = detailsById.get(id);
      if (!content || !row) return [];
      return [toEventRecord(content, row, slots.get(id) ?? [], facilitators.get(id) ?? [], counts.get(id)!)];
    });
  }
}

/** The settings a seat decision reads (EventSeats), in the order an event's settings list them. */
function seatSettingsOf(
  row: Pick<
    DetailsRow,
    'is_local' | 'is_online' | 'enrollment_limit' | 'wait_list_limit' | 'online_enrollment_limit' | 'online_wait_list_limit'
  >,
): EventSeats['settings'] {
  return {
    is_local: toBool(row.is_local),
    is_online: toBool(row.is_online),
    enrollment_limit: row.enrollment_limit,
    wait_list_limit: row.wait_list_limit,
    online_enrollment_limit: row.online_enrollment_limit,
    online_wait_list_limit: row.online_wait_list_limit,
  };
}

function toEventRecord(
  content: ContentRecord,
  row: DetailsRow,
  timeslots: StoredTimeslot[],
  facilitators: FacilitatorEntry[],
  enrollmentCounts: EnrollmentCounts,
): EventRecord {
  return {
    id: content.id,
    kind: content.contentType as EventKind,
    content,
    settings: {
      location_id: row.location_id,
      ...seatSettingsOf(row),
      body_markdown: row.body_markdown,
      external_link: row.external_link,
      external_link_description: row.external_link_description,
      cover_url: row.cover_url,
    },
    series:
      row.series_id !== null && row.series_public_id !== null
        ? { id: row.series_id, public_id: row.series_public_id, name: row.series_name! }
        : null,
    location: row.location_id === null ? null : { id: row.location_id, name: row.location_name!, timezone: row.location_timezone! },
    timeslots,
    span:
      row.starts_at === null
        ? null
        : { starts_at: row.starts_at, ends_at: row.ends_at!, starts_at_utc: row.starts_at_utc!, ends_at_utc: row.ends_at_utc! },
    facilitators,
    enrollmentCounts,
    calendarSequence: row.calendar_sequence,
  };
}
