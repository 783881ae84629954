/** Injectable time source: rules read the time from here, never from `Date.now()` directly. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Timestamps are stored and returned as UTC ISO-8601 with milliseconds and `Z`; they sort as strings. */
export const toIso = (date: Date): string => date.toISOString();

let lastNow = { ms: NaN, iso: '' };

/** The clock's time as stored. Formatted once per millisecond: under load many requests share one. */
export function nowIso(clock: Clock): string {
  const ms = clock.now().getTime();
  if (ms !== lastNow.ms) lastNow = { ms, iso: new Date(ms).toISOString() };
  return lastNow.iso;
}

/** Today's date (UTC) as `YYYY-MM-DD`. */
export const todayUtc = (clock: Clock): string => toIso(clock.now()).slice(0, 10);
