/**
 * Events and event series (spec "Event series", "Event", docs/events.md). Both are content items
 * (types `event` and `event_type`): their name, description, tags, channel, visibility and archive
 * state live on the content row; what is theirs alone — location, attendance modes, limits,
 * markdown body, links, cover, facilitators and, for events, timeslots — is declared here.
 */
import { z } from 'zod';
import { tagNamesField, type ContentRecord } from '../content/content-item.ts';
import { MAX_INTEGER_ID } from '../shared/ids.ts';
import { listed, listSpecOf } from '../shared/listed-fields.ts';
import { descriptionField, MAX_TAG_LENGTH, nameField, publicIdField, urlField } from '../shared/schema.ts';
import { facilitatorsInput, facilitatorsSchema, facilitatorsView, type FacilitatorEntry } from './facilitators.ts';
import { MAX_TIMESLOT_MINUTES } from './iso-duration.ts';
import { locationSchema, type Location } from './location.ts';
import { createTimeslotsField, replaceTimeslotsField, timeslotView, timeslotViewSchema, type StoredTimeslot } from './timeslot.ts';
import type { TimeslotTimes } from './wall-clock.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';

export { type FacilitatorRole } from './facilitators.ts';

export const eventKinds = ['event', 'event_type'] as const;
export type EventKind = (typeof eventKinds)[number];

/** [spec-gap] A limit above this is a typo, not a venue. */
export const MAX_ENROLLMENT_LIMIT = 1_000_000;

/** The four limits, in person and online (0 for none), each a `field()`, in the order the view lists them. */
const limitsOf = <S extends z.ZodType>(field: () => S) => ({
  enrollment_limit: field(),
  wait_list_limit: field(),
  online_enrollment_limit: field(),
  online_wait_list_limit: field(),
});

/** What an event or series keeps beside its content row (`is_hidden` and the rest live there). */
export const eventSettingsSchema = z.object({
  location_id: z.number().int().nullable(),
  is_local: z.boolean(),
  is_online: z.boolean(),
  ...limitsOf(() => z.number().int()),
  body_markdown: z.string().nullable(),
  external_link: z.string().nullable(),
  external_link_description: z.string().nullable(),
  cover_url: z.string().nullable(),
});
export type EventSettings = z.infer<typeof eventSettingsSchema>;

export const limitFields = ['enrollment_limit', 'wait_list_limit', 'online_enrollment_limit', 'online_wait_list_limit'] as const;

const methodCountsSchema = z.object({ enrolled: z.number().int(), waitlisted: z.number().int() });
/** [ext] How full each attendance method is; the wait list is the queue behind the seats. */
export const enrollmentCountsSchema = z.object({ in_person: methodCountsSchema, online: methodCountsSchema });
export type EnrollmentCounts = z.infer<typeof enrollmentCountsSchema>;

export const noEnrollments = (): EnrollmentCounts => ({
  in_person: { enrolled: 0, waitlisted: 0 },
  online: { enrolled: 0, waitlisted: 0 },
});

const namedRefSchema = z.object({ public_id: z.string(), name: z.string() });

/** `GET /events/<id>/` and the payload of `event.*` webhook events, in the order docs/events.md lists. */
export const eventViewSchema = z
  .object({
    public_id: z.string(),
    name: listed(z.string(), { sort: true, search: true }),
    content_type: z.literal('event'),
    description: z.string(),
    event_series: namedRefSchema.nullable(),
    timeslots: z.array(timeslotViewSchema),
    // `starts_at` sorts by the true instant: wall clocks of different zones do not order
    starts_at: listed(z.string(), { sort: true }),
    ends_at: z.string(),
    starts_at_utc: listed(z.string(), { range: 'datetime' }),
    ends_at_utc: z.string(),
    location_id: listed(z.number().int().nullable(), { filter: true }),
    location: locationSchema.nullable(),
    is_local: listed(z.boolean(), { filter: true }),
    is_online: listed(z.boolean(), { filter: true }),
    is_hidden: listed(z.boolean(), { filter: true }),
    ...limitsOf(() => z.number().int()),
    body_markdown: z.string().nullable(),
    tags: z.array(z.string()),
    external_link: z.string().nullable(),
    external_link_description: z.string().nullable(),
    cover_url: z.string().nullable(),
    channel: listed(namedRefSchema.nullable(), { filter: true }),
    facilitators: facilitatorsSchema,
    is_archived: listed(z.boolean(), { filter: true }),
    created: listed(z.string(), { range: 'datetime', sort: true }),
    modified: listed(z.string(), { range: 'datetime', sort: true }),
    enrollment_counts: enrollmentCountsSchema,
  })
  .register(apiSchemaNames, { id: 'Event' });
export type EventView = z.infer<typeof eventViewSchema>;

/**
 * `GET /event-series/<id>/` and the `event_type.*` payload: the event's fields without what only an
 * occurrence has (its series, timeslots and their span, enrollments), plus the default `duration`.
 */
export const seriesViewSchema = eventViewSchema
  .omit({
    content_type: true,
    event_series: true,
    timeslots: true,
    starts_at: true,
    ends_at: true,
    starts_at_utc: true,
    ends_at_utc: true,
    enrollment_counts: true,
  })
  .extend({ content_type: z.literal('event_type'), duration: listed(z.number().int(), { sort: true }) })
  .register(apiSchemaNames, { id: 'EventSeries' });
export type SeriesView = z.infer<typeof seriesViewSchema>;

/** A stored event or series with everything its view needs. */
export interface EventRecord {
  /** the content item's internal id */
  id: number;
  kind: EventKind;
  content: ContentRecord;
  settings: EventSettings;
  /** null for a series, for a standalone event, and once the series is deleted */
  series: { id: number; public_id: string; name: string } | null;
  location: Location | null;
  /** empty for a series */
  timeslots: StoredTimeslot[];
  /** the span over the timeslots; null for a series */
  span: TimeslotTimes | null;
  facilitators: FacilitatorEntry[];
  enrollmentCounts: EnrollmentCounts;
  /** the iCalendar SEQUENCE of the event's timeslots: raised by every change (docs/notifications.md) */
  calendarSequence: number;
}

/** The fields events and series read alike, in the view's order from `location_id` on. */
function sharedFields(record: EventRecord) {
  const { summary } = record.content;
  const { settings } = record;
  return {
    location_id: settings.location_id,
    location: record.location,
    is_local: settings.is_local,
    is_online: settings.is_online,
    is_hidden: summary.is_hidden,
    enrollment_limit: settings.enrollment_limit,
    wait_list_limit: settings.wait_list_limit,
    online_enrollment_limit: settings.online_enrollment_limit,
    online_wait_list_limit: settings.online_wait_list_limit,
    body_markdown: settings.body_markdown,
    tags: summary.tags,
    external_link: settings.external_link,
    external_link_description: settings.external_link_description,
    cover_url: settings.cover_url,
    channel: summary.channel,
    facilitators: facilitatorsView(record.facilitators),
    is_archived: summary.is_archived,
    created: summary.created,
    modified: summary.modified,
  };
}

export function eventViewOf(record: EventRecord): EventView {
  const { summary } = record.content;
  const span = record.span!;
  return {
    public_id: summary.public_id,
    name: summary.name,
    content_type: 'event',
    description: summary.description,
    event_series: record.series && { public_id: record.series.public_id, name: record.series.name },
    timeslots: record.timeslots.map(timeslotView),
    starts_at: span.starts_at,
    ends_at: span.ends_at,
    starts_at_utc: span.starts_at_utc,
    ends_at_utc: span.ends_at_utc,
    ...sharedFields(record),
    enrollment_counts: record.enrollmentCounts,
  };
}

export function seriesViewOf(record: EventRecord): SeriesView {
  const { summary } = record.content;
  return {
    public_id: summary.public_id,
    name: summary.name,
    content_type: 'event_type',
    description: summary.description,
    // the series' default timeslot length is the content item's duration
    duration: summary.duration_minutes,
    ...sharedFields(record),
  };
}

export const viewOf = (record: EventRecord): EventView | SeriesView =>
  record.kind === 'event' ? eventViewOf(record) : seriesViewOf(record);

// ---- writes ----------------------------------------------------------------------------------

const optional = <T extends Record<string, z.ZodType>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof T]: z.ZodOptional<T[K]>;
  };

const limitField = () => z.number().int().min(0).max(MAX_ENROLLMENT_LIMIT);

/** `tags: null` means none, as `[]` does: an override must be able to say "no tags" either way. */
const tagsField = () =>
  tagNamesField()
    .nullable()
    .transform((tags) => tags ?? []);

/** The fields inheritance rule 2 lets an event override on create; also writable on any PATCH. */
const overridableFields = {
  body_markdown: descriptionField().nullable(),
  tags: tagsField(),
  location_id: z.number().int().positive().max(MAX_INTEGER_ID, { error: 'No location has this id.' }).nullable(),
  ...limitsOf(limitField),
  is_local: z.boolean(),
  is_online: z.boolean(),
  is_hidden: z.boolean(),
  external_link: urlField().nullable(),
};

/** Rule 4: set on a series (or an existing event), copied to new events with no override on create. */
const inheritedOnlyFields = {
  cover_url: urlField().nullable(),
  channel_id: publicIdField().nullable(),
  external_link_description: descriptionField().nullable(),
};

const ownFields = { name: nameField(), description: descriptionField() };

const seriesFields = {
  ...ownFields,
  ...overridableFields,
  ...inheritedOnlyFields,
  /** minutes given to timeslots that set no duration; 0 gives none */
  duration: z.number().int().min(0).max(MAX_TIMESLOT_MINUTES),
  facilitators: facilitatorsInput,
};

export const createSeriesInput = z
  .strictObject({ ...optional(seriesFields), name: ownFields.name })
  .register(apiSchemaNames, { id: 'EventSeriesCreate' });
export const updateSeriesInput = z.strictObject(seriesFields).partial().register(apiSchemaNames, { id: 'EventSeriesUpdate' });
export type SeriesWrite = z.output<typeof updateSeriesInput>;

/** A known field this write does not take: 422 saying why and how, rather than "Unknown field.". */
const refused = (message: string) => z.never({ error: message }).optional();

/** A field an event takes from its series only (rule 4). */
const notOnCreate = (how: string) => refused(`Not accepted on create: it is copied from the event series. ${how}`);

export const createEventInput = z
  .strictObject({
    name: ownFields.name,
    description: ownFields.description.optional(),
    event_series_id: publicIdField().nullable().optional(),
    timeslots: createTimeslotsField(),
    ...optional(overridableFields),
    cover_url: notOnCreate('Change it afterwards with PATCH.'),
    channel_id: notOnCreate('Change it afterwards with PATCH.'),
    external_link_description: notOnCreate('Change it afterwards with PATCH.'),
    facilitators: notOnCreate('Change them afterwards with PUT /events/<id>/facilitators/.'),
  })
  .register(apiSchemaNames, { id: 'EventCreate' });
export type CreateEventInput = z.output<typeof createEventInput>;

const eventUpdateFields = {
  ...ownFields,
  ...overridableFields,
  ...inheritedOnlyFields,
  /** links or unlinks the series; nothing is inherited (spec: no inheritance on PATCH) */
  event_series_id: publicIdField().nullable(),
  timeslots: replaceTimeslotsField(),
};
export const updateEventInput = z.strictObject(eventUpdateFields).partial().register(apiSchemaNames, { id: 'EventUpdate' });
export type EventWrite = z.output<typeof updateEventInput>;

/** One item of `PATCH /events/bulk/` (docs/assignments.md): any PATCH field but timeslots, named by `public_id`. */
export const bulkEventItemInput = z
  .strictObject({
    ...optional(eventUpdateFields),
    public_id: publicIdField(),
    timeslots: refused('Timeslot changes are not supported in bulk; use PATCH /events/<id>/.'),
  })
  .register(apiSchemaNames, { id: 'EventBulkItem' });

/** One item of `PATCH /event-series/bulk/`: any series PATCH field, named by `public_id`. */
export const bulkSeriesItemInput = z
  .strictObject({ ...optional(seriesFields), public_id: publicIdField() })
  .register(apiSchemaNames, { id: 'EventSeriesBulkItem' });

// ---- lists -----------------------------------------------------------------------------------

const tagFilter = { tag: { kind: 'string', maxLength: MAX_TAG_LENGTH } } as const;

/** `GET /events/`: the specification's `event_series_id`, `created__gte` and ordering, and more. */
export const eventListSpec = listSpecOf(eventViewSchema, {
  filters: { ...tagFilter, event_series_id: { kind: 'uuid' } },
  defaultOrdering: ['created'],
});

/** `GET /event-series/`. */
export const seriesListSpec = listSpecOf(seriesViewSchema, { filters: tagFilter, defaultOrdering: ['created'] });
