/**
 * Dates in the browser's locale and time zone, with one formatter of each kind for the page's life:
 * `toLocaleString` with options builds a new `Intl.DateTimeFormat` per call, and a table of dates
 * spent over 100 ms of its first render on them.
 */
let dateTimeFormat: Intl.DateTimeFormat | undefined;
let dateFormat: Intl.DateTimeFormat | undefined;

/** "28 Nov 2026, 14:05" in the browser's locale */
export function localDateTime(date: Date): string {
  dateTimeFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return dateTimeFormat.format(date);
}

/** the date alone, as `toLocaleDateString()` writes it */
export function localDate(date: Date): string {
  dateFormat ??= new Intl.DateTimeFormat();
  return dateFormat.format(date);
}
