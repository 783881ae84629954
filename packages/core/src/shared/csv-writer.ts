/**
 * The one way Lectern writes CSV (import reports, list exports), on csv-stringify.
 *
 * A text cell a spreadsheet would run as a formula (beginning with `=`, `+`, `-`, `@`, a tab or a
 * carriage return) is written with a leading `'`, so opening an export cannot run what a user typed
 * as their name; the stored data is unchanged. A negative number is a number, not a formula, and is
 * written as it is. null and undefined are empty cells, booleans `true`/`false`, arrays and objects
 * their JSON text. Lines end with `\n`.
 */
import { type Stringifier, stringify as stringifyStream } from 'csv-stringify';
import { type Options, stringify } from 'csv-stringify/sync';

/** What one cell may hold; anything else (a nested object) is written as its JSON text too. */
export type CsvCell = string | number | boolean | null | undefined | readonly unknown[] | object;

// A function, not a shared object: csv-stringify fills its defaults into the options it is given.
const csvOptions = (): Options => ({
  escape_formulas: true,
  record_delimiter: '\n',
  cast: {
    boolean: (value) => (value ? 'true' : 'false'),
    date: (value) => value.toISOString(),
  },
});

/** One CSV line, `\n` included: a row of an export written as it is read. */
export function csvLine(cells: readonly CsvCell[]): string {
  return stringify([cells as unknown[]], csvOptions());
}

/** Several CSV lines at once (a batch of rows): one call into csv-stringify rather than one a row. */
export function csvLines(rows: readonly (readonly CsvCell[])[]): string {
  return rows.length === 0 ? '' : stringify(rows as unknown[][], csvOptions());
}

/**
 * A stream taking rows (arrays of cells) and giving CSV text, for a writer that pipes into a file:
 * respect `write()` returning false and wait for 'drain'.
 */
export function csvStream(): Stringifier {
  return stringifyStream(csvOptions());
}
