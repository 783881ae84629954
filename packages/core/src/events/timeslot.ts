/**
 * Timeslots (spec "Timeslot", docs/events.md): the sessions of an event. A client sends a wall-clock
 * `starts_at` and an ISO-8601 `duration`; Lectern stores the wall clock as sent (normalised) and the
 * true instants computed in the event location's zone, so lists can filter and sort by instant.
 *
 * Decisions where the specification is silent:
 * - At most MAX_TIMESLOTS per event; timeslots may overlap (parallel tracks of one event).
 * - `rooms_info` is a string (≤ 1000 characters, `""` when not given; `null` is read as `""`),
 *   `watch_link` an http(s) URL or null.
 * - Each timeslot also reads back its instants (`starts_at_utc`, `ends_at_utc`) [ext], as the event does.
 * - Timeslots read in order of their start instant, then of creation.
 */
import { z } from 'zod';
import { fieldError } from '../shared/errors.ts';
import { urlField } from '../shared/schema.ts';
import { formatDurationMinutes, parseTimeslotDuration } from './iso-duration.ts';
import { eventSpan, parseWallClock, timeslotTimes, type TimeslotTimes } from './wall-clock.ts';

export const MAX_TIMESLOTS = 100;
export const MAX_ROOMS_INFO = 1000;

export const timeslotViewSchema = z.object({
  id: z.number().int(),
  starts_at: z.string(),
  ends_at: z.string(),
  starts_at_utc: z.string(),
  ends_at_utc: z.string(),
  duration: z.string(),
  rooms_info: z.string(),
  watch_link: z.string().nullable(),
});
export type TimeslotView = z.infer<typeof timeslotViewSchema>;

/** A timeslot to be scheduled: what the client decided, durations resolved to minutes. */
export interface PlannedTimeslot {
  starts_at: string;
  duration_minutes: number;
  rooms_info: string;
  watch_link: string | null;
}

/** A timeslot with its four times worked out in the location's zone. */
export type ScheduledTimeslot = PlannedTimeslot & TimeslotTimes;

/** As stored: `id` is the integer the API exposes. */
export type StoredTimeslot = ScheduledTimeslot & { id: number };

const wallClockField = () =>
  z
    .string()
    .transform((value, ctx) => {
      const wallClock = parseWallClock(value);
      if (wallClock === null) {
        ctx.addIssue({
          code: 'custom',
          message: "Must be the local start time written as UTC, e.g. 2026-03-29T09:00:00Z (the location's zone applies).",
        });
        return z.NEVER;
      }
      return wallClock;
    })
    // what parseWallClock reads, for the OpenAPI document: a UTC-written instant, seconds optional
    .meta({ format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?Z$' });

/** An ISO-8601 duration (`PT1H`, `PT1H30M`, `PT90M`) read as whole minutes. */
const durationField = () =>
  z
    .string()
    .transform((value, ctx) => {
      const parsed = parseTimeslotDuration(value);
      if (!parsed.ok) {
        ctx.addIssue({ code: 'custom', message: parsed.reason });
        return z.NEVER;
      }
      return parsed.value;
    })
    // for the OpenAPI document: the common subset, whole minutes or hours (more forms are read)
    .meta({ pattern: '^PT(?:[1-9]\\d{0,2}H(?:[0-5]?\\dM)?|[1-9]\\d{0,3}M)$', examples: ['PT1H', 'PT1H30M', 'PT90M'] });

/**
 * One timeslot of a write. On create a missing (or null) `duration` takes the series duration
 * (inheritance rule 3); a PATCH inherits nothing, so there it is required.
 */
const timeslotInput = (durationRequired: boolean) =>
  z.strictObject({
    starts_at: wallClockField(),
    duration: durationRequired ? durationField() : durationField().nullable().optional(),
    rooms_info: z.string().max(MAX_ROOMS_INFO).nullable().optional(),
    watch_link: urlField().nullable().optional(),
  });

export const createTimeslotsField = () => z.array(timeslotInput(false)).min(1).max(MAX_TIMESLOTS);
export const replaceTimeslotsField = () => z.array(timeslotInput(true)).min(1).max(MAX_TIMESLOTS);
export type TimeslotInput = z.output<ReturnType<typeof timeslotInput>>;

/** The optional parts of a timeslot with their defaults, once its duration is known. */
export const plannedTimeslot = (slot: TimeslotInput, durationMinutes: number): PlannedTimeslot => ({
  starts_at: slot.starts_at,
  duration_minutes: durationMinutes,
  rooms_info: slot.rooms_info ?? '',
  watch_link: slot.watch_link ?? null,
});

/**
 * Works out every timeslot's times in `timeZone` (null: UTC) and the event's span. A slot whose end
 * would leave the four-digit years is 422 on its duration.
 */
export function scheduleTimeslots(
  slots: readonly PlannedTimeslot[],
  timeZone: string | null,
): { slots: ScheduledTimeslot[]; span: TimeslotTimes } {
  const scheduled = slots.map((slot, index) => {
    const times = timeslotTimes(slot, timeZone);
    if (!/^\d{4}-/.test(times.ends_at_utc) || !/^\d{4}-/.test(times.ends_at)) {
      throw fieldError(`timeslots.${index}.duration`, 'Ends after the year 9999.');
    }
    return { ...slot, ...times };
  });
  return { slots: scheduled, span: eventSpan(scheduled) };
}

export const timeslotView = (slot: StoredTimeslot): TimeslotView => ({
  id: slot.id,
  starts_at: slot.starts_at,
  ends_at: slot.ends_at,
  starts_at_utc: slot.starts_at_utc,
  ends_at_utc: slot.ends_at_utc,
  duration: formatDurationMinutes(slot.duration_minutes),
  rooms_info: slot.rooms_info,
  watch_link: slot.watch_link,
});

/** An event's length as a content item: the minutes of all its timeslots. */
export const totalMinutes = (slots: readonly PlannedTimeslot[]): number => slots.reduce((sum, slot) => sum + slot.duration_minutes, 0);
