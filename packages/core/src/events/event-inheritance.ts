/**
 * The five inheritance rules of `POST /events/` (spec "Event series and events"), applied once,
 * at creation. Pure: the service loads the series and hands both in; nothing here reads storage,
 * and nothing after creation consults the series again (rule 5).
 *
 * 1. A field the body omits takes the series value; a field it sends, even `null` or `[]`, wins.
 * 2. Overridable: body_markdown, tags, location_id, the four limits, is_local, is_online,
 *    is_hidden, external_link.
 * 3. The series `duration` (minutes) fills every timeslot that has none.
 * 4. Copied with no override: cover, facilitators, channel, external_link_description (surveys:
 *    Lectern has none to copy).
 * 5. Later series edits do not reach the event: everything is copied into the event's own rows.
 *
 * Without a series the same rules run against STANDALONE_DEFAULTS, so an event created alone reads
 * exactly like one created from an empty series.
 */
import { validationError, type FieldErrors } from '../shared/errors.ts';
import type { EventRecord, EventSettings } from './event.ts';
import type { FacilitatorRole } from './facilitators.ts';
import { plannedTimeslot, type PlannedTimeslot, type TimeslotInput } from './timeslot.ts';

/** What an event can take from its series. */
export interface SeriesTemplate {
  settings: EventSettings;
  is_hidden: boolean;
  tags: readonly string[];
  /** the channel's public id */
  channelId: string | null;
  facilitators: ReadonlyArray<{ userId: number; role: FacilitatorRole }>;
  /** 0: the series gives timeslots no duration */
  durationMinutes: number;
}

/** The rule-2 fields as the create body carries them: absent when omitted, present (maybe null) when sent. */
export interface EventOverrides {
  body_markdown?: string | null;
  tags?: string[];
  location_id?: number | null;
  enrollment_limit?: number;
  wait_list_limit?: number;
  online_enrollment_limit?: number;
  online_wait_list_limit?: number;
  is_local?: boolean;
  is_online?: boolean;
  is_hidden?: boolean;
  external_link?: string | null;
  timeslots: readonly TimeslotInput[];
}

/** The event as created: every field decided. */
export interface InheritedEvent {
  settings: EventSettings;
  is_hidden: boolean;
  tags: string[];
  channelId: string | null;
  facilitators: Array<{ userId: number; role: FacilitatorRole }>;
  timeslots: PlannedTimeslot[];
}

/**
 * [spec-gap] An event with no series: in person only (`is_local` true), no limits (0 = unlimited),
 * no location (its wall clock is UTC), nothing else set.
 */
export const STANDALONE_DEFAULTS: SeriesTemplate = Object.freeze({
  settings: Object.freeze({
    location_id: null,
    is_local: true,
    is_online: false,
    enrollment_limit: 0,
    wait_list_limit: 0,
    online_enrollment_limit: 0,
    online_wait_list_limit: 0,
    body_markdown: null,
    external_link: null,
    external_link_description: null,
    cover_url: null,
  }),
  is_hidden: false,
  tags: Object.freeze([]) as readonly string[],
  channelId: null,
  facilitators: Object.freeze([]) as readonly [],
  durationMinutes: 0,
});

/** Rule 1 for one field: sent (anything but undefined, so null too) beats the template. */
const pick = <T>(sent: T | undefined, inherited: T): T => (sent === undefined ? inherited : sent);

export function inheritFromSeries(body: EventOverrides, series: SeriesTemplate | null): InheritedEvent {
  const template = series ?? STANDALONE_DEFAULTS;
  const from = template.settings;

  // rule 3: every timeslot without a duration needs one from the series; report them all at once
  const errors: FieldErrors = {};
  const timeslots = body.timeslots.map((slot, index) => {
    const minutes = slot.duration ?? (template.durationMinutes > 0 ? template.durationMinutes : null);
    if (minutes === null) {
      errors[`timeslots.${index}.duration`] = [
        series
          ? 'Required: the event series sets no duration to take instead.'
          : 'Required: without an event series there is no duration to take instead.',
      ];
      return null;
    }
    return plannedTimeslot(slot, minutes);
  });
  if (Object.keys(errors).length > 0) throw validationError(errors);

  return {
    settings: {
      // rule 2: overridable
      location_id: pick(body.location_id, from.location_id),
      is_local: pick(body.is_local, from.is_local),
      is_online: pick(body.is_online, from.is_online),
      enrollment_limit: pick(body.enrollment_limit, from.enrollment_limit),
      wait_list_limit: pick(body.wait_list_limit, from.wait_list_limit),
      online_enrollment_limit: pick(body.online_enrollment_limit, from.online_enrollment_limit),
      online_wait_list_limit: pick(body.online_wait_list_limit, from.online_wait_list_limit),
      body_markdown: pick(body.body_markdown, from.body_markdown),
      external_link: pick(body.external_link, from.external_link),
      // rule 4: copied, no override
      external_link_description: from.external_link_description,
      cover_url: from.cover_url,
    },
    is_hidden: pick(body.is_hidden, template.is_hidden),
    // rule 5: copies, so a later change to the series' arrays cannot show through
    tags: [...pick<readonly string[]>(body.tags, template.tags)],
    channelId: template.channelId,
    facilitators: template.facilitators.map((entry) => ({ ...entry })),
    timeslots: timeslots as PlannedTimeslot[],
  };
}

/** The template a stored series offers its new events. */
export function seriesTemplateOf(series: EventRecord): SeriesTemplate {
  const { summary } = series.content;
  return {
    settings: series.settings,
    is_hidden: summary.is_hidden,
    tags: summary.tags,
    channelId: summary.channel?.public_id ?? null,
    facilitators: series.facilitators.map(({ userId, role }) => ({ userId, role })),
    durationMinutes: summary.duration_minutes,
  };
}
