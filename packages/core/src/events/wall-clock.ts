/**
 * Timeslot times (docs/events.md). A timeslot's `starts_at` is a local wall-clock time in the event
 * location's zone written with a `Z` ("labeled as UTC"); the true instants are exposed separately
 * as `starts_at_utc` / `ends_at_utc`. Built on `Intl` only, so the zone data is the runtime's ICU.
 *
 * Decisions:
 * - Wall clocks and instants are both written `YYYY-MM-DDTHH:MM:SS.mmmZ`, like every timestamp in
 *   responses; a wall-clock input may also omit the designator or say `+00:00`, but any other
 *   offset is rejected because it would mean the client sent an instant, not a wall clock.
 * - A wall-clock time that does not exist (DST gap) moves forward by the length of the gap
 *   (02:30 on a spring-forward night in Berlin is 03:30 CEST), and one that exists twice (DST
 *   overlap) takes the earlier instant (the first 02:30). This is Temporal's and most libraries'
 *   "compatible" disambiguation, and it makes the mapping total and deterministic.
 * - The end of a timeslot is its start INSTANT plus the duration (elapsed time: a two-hour
 *   session lasts two real hours even across a DST change), and its wall-clock `ends_at` is that
 *   instant read back on the zone's clock. Adding minutes to the wall clock instead would make
 *   sessions across a change an hour too long or short, and could land the end in a gap.
 * - Because of the first rule, a wall-clock start inside a gap is reported in its normalised form
 *   (03:30 rather than the 02:30 sent), so `starts_at` and `starts_at_utc` name the same moment.
 * - No location means the wall clock is UTC (docs/events.md): pass `null` or `'UTC'`.
 * - Years are limited to 1000–9999 so every value keeps the four-digit ISO form.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|\+00:00)?$/;

/**
 * IANA zone names as ECMA-402 accepts them: canonical names, links such as `US/Eastern`, and
 * `UTC`/`Etc/UTC`; matching is case-insensitive there, so `europe/berlin` is valid too. Offset
 * strings (`+01:00`), which newer runtimes accept as zones, are refused: they have no DST rules
 * and are not IANA names. Store the name as the client sent it: ICU's canonicalisation is
 * idiosyncratic (it maps `Asia/Kolkata` to `Asia/Calcutta`).
 */
export function isValidTimeZone(name: unknown): name is string {
  if (typeof name !== 'string' || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name) || name.length > 64) return false;
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      // h23, not hour12:false, which older ICU renders midnight as "24"
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function assertZone(timeZone: string): void {
  if (!isValidTimeZone(timeZone)) throw new RangeError(`Unknown IANA time zone: ${JSON.stringify(timeZone)}.`);
}

/** Milliseconds since the epoch of a wall-clock reading, treating it as if it were UTC. */
function wallMillis(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years below 100 to the 1900s
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

/** The zone's UTC offset, in milliseconds, at an instant (whole seconds: ICU offsets never finer). */
function offsetAt(timeZone: string, instantMs: number): number {
  const seconds = Math.floor(instantMs / 1000) * 1000;
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(seconds)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const hour = parts.hour === 24 ? 0 : parts.hour!;
  return wallMillis(parts.year!, parts.month!, parts.day!, hour, parts.minute!, parts.second!) - seconds;
}

/**
 * A wall-clock input normalised to `YYYY-MM-DDTHH:MM:SS.mmmZ`, or null when it is not a real
 * calendar time (or carries a non-zero offset). Fractions beyond milliseconds are truncated.
 */
export function parseWallClock(value: string): string | null {
  if (typeof value !== 'string') return null;
  const m = WALL_CLOCK.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '00', frac = ''] = m;
  const year = Number(y);
  if (year < 1000 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  const ms = wallMillis(year, Number(mo), Number(d), Number(h), Number(mi), Number(s));
  const iso = new Date(ms).toISOString();
  // a date such as 02-30 rolls over into March; the round trip catches it
  if (iso.slice(0, 10) !== `${y}-${mo}-${d}`) return null;
  return `${iso.slice(0, 19)}.${(frac + '000').slice(0, 3)}Z`;
}

function wallClockMillis(wallClock: string): number {
  const normalised = parseWallClock(wallClock);
  if (normalised === null) throw new RangeError(`Not a wall-clock time: ${JSON.stringify(wallClock)}.`);
  return Date.parse(normalised);
}

function instantMillis(instant: string): number {
  // an instant must say which zone it is in; a bare local time is a wall clock, not an instant
  if (typeof instant !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(instant)) {
    throw new RangeError(`Not an ISO-8601 instant: ${JSON.stringify(instant)}.`);
  }
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) throw new RangeError(`Not an ISO-8601 instant: ${JSON.stringify(instant)}.`);
  return ms;
}

const zoneOrUtc = (timeZone: string | null): string => timeZone ?? 'UTC';

function toInstantMillis(localMs: number, timeZone: string): number {
  const before = offsetAt(timeZone, localMs - DAY_MS);
  const after = offsetAt(timeZone, localMs + DAY_MS);
  const candidates = [...new Set([before, offsetAt(timeZone, localMs), after])]
    .map((offset) => localMs - offset)
    .filter((instant) => instant + offsetAt(timeZone, instant) === localMs)
    .sort((a, b) => a - b);
  // several candidates: an overlap, the earlier instant wins; none: a gap, read with the offset
  // in force before it, which lands the same distance past the gap's end
  return candidates[0] ?? localMs - before;
}

/** The true UTC instant of a wall-clock time in a zone (gaps move forward, overlaps take the earlier). */
export function wallClockToInstant(wallClock: string, timeZone: string | null): string {
  const zone = zoneOrUtc(timeZone);
  assertZone(zone);
  return new Date(toInstantMillis(wallClockMillis(wallClock), zone)).toISOString();
}

/** What a clock in the zone reads at an instant, written with `Z` like every wall-clock value. */
export function instantToWallClock(instant: string, timeZone: string | null): string {
  const zone = zoneOrUtc(timeZone);
  assertZone(zone);
  const ms = instantMillis(instant);
  return new Date(ms + offsetAt(zone, ms)).toISOString();
}

/**
 * The wall clock `minutes` of ELAPSED time after a wall-clock time in a zone (see the header):
 * start instant + minutes, read back on the zone's clock. With UTC (the default) this is plain
 * addition.
 */
export function addMinutesWallClock(wallClock: string, minutes: number, timeZone: string | null = 'UTC'): string {
  if (!Number.isFinite(minutes)) throw new RangeError(`Not a number of minutes: ${minutes}.`);
  const zone = zoneOrUtc(timeZone);
  return instantToWallClock(new Date(Date.parse(wallClockToInstant(wallClock, zone)) + minutes * MINUTE_MS).toISOString(), zone);
}

export interface TimeslotTimes {
  /** Wall clock in the zone, normalised (a time inside a DST gap reads as the time it became). */
  starts_at: string;
  ends_at: string;
  starts_at_utc: string;
  ends_at_utc: string;
}

/** All four times of one timeslot from its wall-clock start, its duration and the location's zone. */
export function timeslotTimes(slot: { starts_at: string; duration_minutes: number }, timeZone: string | null): TimeslotTimes {
  if (!Number.isSafeInteger(slot.duration_minutes) || slot.duration_minutes <= 0) {
    throw new RangeError(`A timeslot lasts a positive whole number of minutes (got ${slot.duration_minutes}).`);
  }
  const zone = zoneOrUtc(timeZone);
  const startsAtUtc = wallClockToInstant(slot.starts_at, zone);
  const endsAtUtc = new Date(Date.parse(startsAtUtc) + slot.duration_minutes * MINUTE_MS).toISOString();
  return {
    starts_at: instantToWallClock(startsAtUtc, zone),
    ends_at: instantToWallClock(endsAtUtc, zone),
    starts_at_utc: startsAtUtc,
    ends_at_utc: endsAtUtc,
  };
}

/**
 * An event's span over its timeslots (docs/events.md: min start, max end). Compared by instant, not
 * by wall clock, which orders wrongly inside a DST overlap; the wall clock of the winner is kept.
 */
export function eventSpan(slots: readonly TimeslotTimes[]): TimeslotTimes {
  const [first, ...rest] = slots;
  if (!first) throw new RangeError('An event has at least one timeslot.');
  let start = first;
  let end = first;
  for (const slot of rest) {
    if (slot.starts_at_utc < start.starts_at_utc) start = slot;
    if (slot.ends_at_utc > end.ends_at_utc) end = slot;
  }
  return {
    starts_at: start.starts_at,
    ends_at: end.ends_at,
    starts_at_utc: start.starts_at_utc,
    ends_at_utc: end.ends_at_utc,
  };
}
