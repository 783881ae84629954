/**
 * ISO-8601 durations as timeslots use them (`PT1H`, `PT1H30M`, `PT90M`).
 *
 * Decisions where the specification is silent:
 * - Only components of fixed length are accepted: weeks (7 days), days (24 hours), hours, minutes,
 *   seconds. Years and months are rejected because their length depends on the calendar.
 *   A day is 24 elapsed hours: the end of a timeslot is its start instant plus the duration
 *   (see wall-clock.ts), so `P1D` across a DST change ends at a different wall-clock hour.
 * - Components must appear in ISO order (W before D, H before M before S) and may be combined
 *   (`P1W2D`, `P1DT2H`), as Temporal allows. Designators are upper case only, as ISO writes them.
 * - A decimal fraction (`.` or `,`) is allowed on the last component only (`PT1.5H` = 90 minutes);
 *   the total must come to whole seconds. Arithmetic is exact (integers), never floating point.
 * - No sign: negative (and explicitly positive) durations are rejected. `P`, `PT` and a trailing
 *   `T` with nothing after it are rejected.
 * - The general parser works in seconds. Timeslots work in whole minutes (the unit of the series
 *   `duration` and of content `duration`), must be positive and at most MAX_TIMESLOT_MINUTES;
 *   `PT90S` is therefore rejected for a timeslot rather than silently rounded.
 * - The canonical form written back uses hours and minutes only (`PT1H30M`, `PT24H`, `PT0M`):
 *   days would read as calendar days, which these are not.
 */

export type DurationResult<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A year: long enough for any multi-day timeslot, small enough to keep every datetime in range. */
export const MAX_TIMESLOT_MINUTES = 366 * 24 * 60;

const NUMBER = String.raw`(\d+(?:[.,]\d+)?)`;
const DURATION = new RegExp(
  `^P(?:${NUMBER}Y)?(?:${NUMBER}M)?(?:${NUMBER}W)?(?:${NUMBER}D)?(?:(T)(?:${NUMBER}H)?(?:${NUMBER}M)?(?:${NUMBER}S)?)?$`,
);

// Seconds per unit, in the order the regex captures them (the 'T' group sits between D and H).
const UNITS: ReadonlyArray<{ group: number; name: string; seconds: bigint | null }> = [
  { group: 1, name: 'years', seconds: null },
  { group: 2, name: 'months', seconds: null },
  { group: 3, name: 'weeks', seconds: 604_800n },
  { group: 4, name: 'days', seconds: 86_400n },
  { group: 6, name: 'hours', seconds: 3_600n },
  { group: 7, name: 'minutes', seconds: 60n },
  { group: 8, name: 'seconds', seconds: 1n },
];

const fail = <T>(reason: string): DurationResult<T> => ({ ok: false, reason });

/** Total seconds of an ISO-8601 duration, or a reason fit for a 422 field message. */
export function parseIsoDuration(value: string): DurationResult<number> {
  if (typeof value !== 'string') return fail('Must be an ISO-8601 duration string such as PT1H30M.');
  if (/^[+-]/.test(value)) return fail('Must not carry a sign; durations are positive.');
  const match = DURATION.exec(value);
  if (!match) return fail('Must be an ISO-8601 duration such as PT1H, PT1H30M or PT90M.');

  const present = UNITS.filter((unit) => match[unit.group] !== undefined);
  if (present.length === 0) return fail('Must name at least one component, for example PT1H.');
  if (match[5] !== undefined && !present.some((unit) => unit.group > 5)) {
    return fail('The time designator T must be followed by hours, minutes or seconds.');
  }
  const calendar = present.find((unit) => unit.seconds === null);
  if (calendar) return fail(`Must not use ${calendar.name}: their length varies; use weeks, days, hours or minutes.`);

  let total = 0n;
  for (const [index, unit] of present.entries()) {
    const [whole = '', fraction = ''] = match[unit.group]!.split(/[.,]/);
    if (fraction !== '' && index !== present.length - 1) {
      return fail('Only the last component may have a decimal fraction.');
    }
    const scale = 10n ** BigInt(fraction.length);
    const scaled = (BigInt(whole) * scale + BigInt(fraction || '0')) * unit.seconds!;
    if (scaled % scale !== 0n) return fail('Must come to a whole number of seconds.');
    total += scaled / scale;
  }
  if (total > BigInt(Number.MAX_SAFE_INTEGER)) return fail('Is too long.');
  return { ok: true, value: Number(total) };
}

/** A timeslot duration in whole minutes: positive and at most MAX_TIMESLOT_MINUTES. */
export function parseTimeslotDuration(value: string): DurationResult<number> {
  const parsed = parseIsoDuration(value);
  if (!parsed.ok) return parsed;
  if (parsed.value === 0) return fail('Must be longer than zero.');
  if (parsed.value % 60 !== 0) return fail('Must be a whole number of minutes.');
  const minutes = parsed.value / 60;
  if (minutes > MAX_TIMESLOT_MINUTES) return fail(`Must be at most ${MAX_TIMESLOT_MINUTES / 1440} days.`);
  return { ok: true, value: minutes };
}

/** The canonical string for a whole number of minutes: `PT1H30M`, `PT24H`, `PT45M`, `PT0M`. */
export function formatDurationMinutes(minutes: number): string {
  if (!Number.isSafeInteger(minutes) || minutes < 0) {
    throw new RangeError(`A duration must be a whole, non-negative number of minutes (got ${minutes}).`);
  }
  if (minutes === 0) return 'PT0M';
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `PT${hours > 0 ? `${hours}H` : ''}${rest > 0 ? `${rest}M` : ''}`;
}
