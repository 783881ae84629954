/** Parsing of the date and datetime forms the API accepts, shared by bodies, list filters and RQL. */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?$/i;

/** `YYYY-MM-DD` that names a real calendar day, else null. */
export function parseDate(value: string): string | null {
  const m = DATE.exec(value);
  if (!m) return null;
  const date = new Date(`${value}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return null;
  return value;
}

/**
 * An ISO-8601 datetime (`YYYY-MM-DDTHH:MM[:SS[.fff]]` with optional `Z` or `±HH:MM`; no zone means UTC),
 * normalised to UTC with milliseconds so stored values compare correctly as strings. Null when invalid.
 */
export function parseDatetime(value: string): string | null {
  const m = DATETIME.exec(value);
  if (!m) return null;
  const [, day, hh, mm, ss = '00', frac = '', zone = 'Z'] = m;
  if (parseDate(day!) === null || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return null;
  const millis = (frac + '000').slice(0, 3);
  const date = new Date(`${day}T${hh}:${mm}:${ss}.${millis}${zone.toUpperCase()}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** A day's first and last instants, normalised as parseDatetime normalises a datetime. */
export const dayStart = (day: string): string => `${day}T00:00:00.000Z`;
export const dayEnd = (day: string): string => `${day}T23:59:59.999Z`;

/** A datetime bound that also accepts a bare date: a lower bound starts that day, an upper bound ends it. */
export function parseDatetimeBound(value: string, bound: 'gte' | 'lte'): string | null {
  if (parseDate(value) !== null) return bound === 'gte' ? dayStart(value) : dayEnd(value);
  return parseDatetime(value);
}
