/**
 * Many rows into a PostgreSQL table with `COPY … FROM STDIN` instead of multi-row INSERTs. An
 * INSERT of 500 rows carries thousands of bind parameters: kysely builds and compiles a syntax
 * tree of them, pg serialises each, and the server parses and binds them all. COPY sends the rows
 * as one block of text that the server reads by column type.
 *
 * The COPY runs on the connection of the caller's `db`, so inside a transaction it is part of that
 * transaction (a chunk's rows commit or roll back with its events and audit entries). It reaches
 * the connection through kysely's streaming hook: the dialect's `cursor` slot is given `CopyIn`
 * (open-postgres-storage.ts), which kysely submits to the very pg client that runs the transaction.
 * Lectern never streams a SELECT on PostgreSQL, so the slot is otherwise unused; CopyIn refuses
 * anything but a `COPY … FROM STDIN` statement.
 */
import { CompiledQuery, type Kysely } from 'kysely';
import { from as copyFrom } from 'pg-copy-streams';

type CopyStream = ReturnType<typeof copyFrom>;

/**
 * One COPY, shaped as the cursor kysely's PostgreSQL driver submits: built from the statement's
 * text and, as its one parameter, the rows already in COPY's text format (`copyText`). It is
 * pg-copy-streams' own query object (pg hands it the protocol's COPY messages), with the cursor's
 * two methods added: reading sends the rows and answers no rows once the server has taken them
 * all, which ends kysely's stream.
 */
export const CopyIn = function (text: string, parameters: unknown[]) {
  if (!/^copy [^;]+ from stdin$/i.test(text) || parameters.length !== 1 || typeof parameters[0] !== 'string') {
    throw new Error('only COPY … FROM STDIN with its rows as text is streamed on PostgreSQL');
  }
  const data = parameters[0];
  const stream = copyFrom(text);
  return Object.assign(stream, {
    read: () =>
      new Promise<unknown[]>((resolve, reject) => {
        stream.once('error', reject);
        stream.once('finish', () => resolve([]));
        stream.end(data, 'utf8');
      }),
    close: async () => undefined,
  });
} as unknown as new (text: string, parameters: unknown[]) => CopyStream & { read(): Promise<unknown[]>; close(): Promise<void> };

// the four characters COPY's text format gives a meaning: escaped, so a value arrives as it was
const SPECIAL = /[\\\n\r\t]/g;
// tested first (no global state to reset): most values have none, and replace() would copy them
const HAS_SPECIAL = /[\\\n\r\t]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One value in COPY's text format: `\N` is NULL, so an empty string stays an empty string. */
export function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'string') return HAS_SPECIAL.test(value) ? value.replace(SPECIAL, (c) => ESCAPES[c]!) : value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`cannot store the number ${value}`);
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? 't' : 'f';
  // JSON columns are given as text by the repositories; anything else here is a mistake
  throw new Error(`cannot write a ${typeof value} value with COPY`);
}

/** Rows in COPY's text format: tab between values, a newline after each row. */
export function copyText(rows: ReadonlyArray<readonly unknown[]>): string {
  let text = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) text += i === 0 ? copyValue(row[i]) : `\t${copyValue(row[i])}`;
    text += '\n';
  }
  return text;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Writes `rows` (objects with the same keys, the table's columns) into `table` with one COPY, on
 * `db`'s connection (its transaction, if it is one). Column values are the ones an INSERT would
 * bind: text, numbers, null; a column left out takes its default.
 */
export async function copyRows(db: Kysely<unknown>, table: string, rows: ReadonlyArray<Readonly<Record<string, unknown>>>): Promise<void> {
  if (rows.length === 0) return;
  const columns = definedColumns(rows[0]!);
  const text = `copy ${quoted(table)} (${columns.map(quoted).join(', ')}) from stdin`;
  const data = copyText(rows.map((row) => columns.map((column) => row[column])));
  // drained to its end: the stream yields nothing and finishes once the server has the rows
  for await (const _ of db.getExecutor().stream(CompiledQuery.raw(text, [data]), 1)) void _;
}

// as kysely does, a key whose value is undefined is no column at all (the row takes its default)
const definedColumns = (row: Readonly<Record<string, unknown>>) => Object.keys(row).filter((key) => row[key] !== undefined);

/**
 * Whether every row gives values for the same columns as the first, so that one column list
 * describes them all (a multi-row INSERT gives a left-out column its default per row; COPY cannot).
 */
export function sameColumns(rows: ReadonlyArray<Readonly<Record<string, unknown>>>): boolean {
  if (rows.length === 0) return true;
  const columns = definedColumns(rows[0]!);
  // key by key without building each row's list: every batch row passes through here
  for (let r = 1; r < rows.length; r++) {
    const row = rows[r]!;
    let i = 0;
    for (const key in row) {
      if (row[key] === undefined) continue;
      if (key !== columns[i]) return false;
      i++;
    }
    if (i !== columns.length) return false;
  }
  return true;
}
