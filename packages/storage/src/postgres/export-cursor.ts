/**
 * Exports on PostgreSQL read the rest of a list through one server-side cursor instead of one
 * keyset query per batch of 500 rows. Each of those queries was planned again, and a planner whose
 * statistics had fallen behind a large import planned every batch as a hash join and a sort of all
 * the remaining rows (563 ms a batch, against 10.6 ms after ANALYZE); a cursor plans the rest of
 * the list once and hands it over batch by batch (FETCH).
 *
 * The cursor lives in a read-only REPEATABLE READ transaction, so the rows after the first batch
 * are one snapshot of the database. It runs on a connection of its own, outside the pool, for as
 * long as the export runs (a client that reads slowly keeps it open): the pool's connections stay
 * with requests and transactions. At most `limit` cursors are open at once per process; an export
 * beyond them reads keyset batches on the pool as before, so an export never waits for another.
 */
import type pg from 'pg';
import type { HeldListRead } from '@lectern/core';
import type { OpenHeldRead } from '../shared/held-reads.ts';
import { rowBuilder } from '../shared/row-builder.ts';

const CURSOR = 'lectern_export';

export class ExportCursors {
  private readonly open = new Set<HeldListRead>();
  private closed = false;

  /** `connect` opens a new connection configured as the pool's are. */
  constructor(
    private readonly connect: () => Promise<pg.Client>,
    private readonly limit: number,
  ) {}

  readonly openCursor: OpenHeldRead = (text, parameters) => {
    if (this.closed || this.open.size >= this.limit) return undefined;
    // counted from the start, so that exports starting together cannot pass the limit
    const placeholder: HeldListRead = { read: async () => [], close: async () => undefined };
    this.open.add(placeholder);
    return this.declare(text, parameters).then(
      (cursor) => {
        this.open.delete(placeholder);
        if (this.closed) {
          void cursor.close();
          throw new Error('the database is closing');
        }
        this.open.add(cursor);
        return cursor;
      },
      (error: unknown) => {
        this.open.delete(placeholder);
        throw error;
      },
    );
  };

  /** Ends every open cursor's connection (the server is stopping). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.open].map((cursor) => cursor.close()));
  }

  private async declare(text: string, parameters: readonly unknown[]): Promise<HeldListRead> {
    const client = await this.connect();
    let ended: Promise<void> | undefined;
    // ending the connection ends its transaction and the cursor with it: nothing to roll back
    const end = () => (ended ??= client.end().catch(() => undefined));
    // a connection lost between two reads fails the next read, not the process
    client.on('error', () => void end());
    let json: ReturnType<typeof jsonRows>;
    try {
      await client.query('begin isolation level repeatable read read only');
      // the list's columns, to know whether its rows can come as JSON text (jsonRows)
      const { fields } = await client.query({ text: `select * from (${text}) as lectern_list limit 0`, values: parameters as unknown[] });
      json = jsonRows(fields, client);
      await client.query({
        text: `declare ${CURSOR} no scroll cursor for ${json ? json.select(text) : text}`,
        values: parameters as unknown[],
      });
    } catch (error) {
      await end();
      throw error;
    }
    const fetchForward = async (rows: number): Promise<unknown[]> => {
      const text = `fetch forward ${rows} from ${CURSOR}`;
      // the JSON rows as arrays: pg makes no object a row for their one field
      return (json ? await client.query({ text, rowMode: 'array' }) : await client.query(text)).rows;
    };
    /** the next batch's FETCH, sent as soon as the last one came back; its failure is met where it is awaited */
    let ahead: { rows: number; fetched: Promise<unknown[]> } | undefined;
    let finished = false;
    const cursor: HeldListRead = {
      read: async (rows) => {
        if (finished) return [];
        // closed before the list's end (the server stopping, the connection lost): never a short list
        if (ended) throw new Error("the export's cursor was closed before the end of the list");
        rows = Math.max(1, Math.floor(rows));
        try {
          const fetched = await (ahead?.rows === rows ? ahead.fetched : fetchForward(rows));
          ahead = undefined;
          // the end of the list: the connection is given back at once, not when the export ends
          finished = fetched.length < rows;
          if (finished) await cursor.close();
          else {
            // PostgreSQL reads the next batch while this one is made into rows, encoded and written
            ahead = { rows, fetched: fetchForward(rows) };
            ahead.fetched.catch(() => undefined);
          }
          return json ? json.rowsOf(fetched) : fetched;
        } catch (error) {
          await cursor.close();
          throw error;
        }
      },
      close: async () => {
        this.open.delete(cursor);
        await end();
      },
    };
    return cursor;
  }
}

/**
 * Types whose values PostgreSQL writes in JSON as pg reads them from text: strings, booleans, and
 * numbers, which JSON holds as the same decimal text the driver parses (with the session's
 * extra_float_digits either way), save NaN and the infinities, written as strings and parsed here
 * by the driver's own parser for the type. Anything else (a timestamp with a time zone, an array,
 * bytea) is written differently in JSON, and its list's rows come as they are.
 */
const AS_IN_JSON = new Set([25 /* text */, 1043 /* varchar */, 16 /* bool */]);
const NUMBER_TYPES = new Set([21 /* int2 */, 23 /* int4 */, 20 /* int8 */, 700 /* float4 */, 701 /* float8 */, 1700 /* numeric */]);
/** json_build_array's arguments at most (PostgreSQL's FUNC_MAX_ARGS) */
const MAX_ARGUMENTS = 100;

/**
 * A list's rows as one JSON array of values each, made by PostgreSQL: pg reads one field a row
 * instead of one string and one parser call per column, and JSON.parse makes the values. A CPU
 * profile of a 1 M-row export of assignments (33 columns) put a third of the request thread's work
 * in pg reading the rows' fields and making their objects, and much of its garbage collection.
 * The values come out exactly as pg's parsers give them (AS_IN_JSON, NUMBER_TYPES), and the rows
 * are built with the same keys in the same order. `undefined` when a column's type is not one of
 * those, or the columns cannot be built this way.
 */
export function jsonRows(
  fields: ReadonlyArray<{ name: string; dataTypeID: number }>,
  client: pg.Client,
): { select: (text: string) => string; rowsOf: (fetched: unknown[]) => unknown[] } | undefined {
  const names = fields.map((field) => field.name);
  if (fields.length === 0 || fields.length > MAX_ARGUMENTS || names.includes('__proto__')) return undefined;
  if (!fields.every((field) => AS_IN_JSON.has(field.dataTypeID) || NUMBER_TYPES.has(field.dataTypeID))) return undefined;
  const numbers = fields.flatMap((field, n) => (NUMBER_TYPES.has(field.dataTypeID) ? [n] : []));
  const parsers = fields.map((field) => client.getTypeParser(field.dataTypeID, 'text') as (text: string) => unknown);
  const build = rowBuilder(names);
  // the columns renamed by position (c0, c1, …), which any names allow, even repeated ones; a
  // subquery with ORDER BY is not merged into the query around it, so its rows keep their order
  const aliases = fields.map((_, n) => `c${n}`).join(', ');
  return {
    select: (text) => `select json_build_array(${aliases})::text from (${text}) as lectern_list(${aliases})`,
    rowsOf: (fetched) =>
      fetched.map((row) => {
        const values = JSON.parse((row as [string])[0]) as unknown[];
        for (const n of numbers) if (typeof values[n] === 'string') values[n] = parsers[n]!(values[n] as string);
        return build(values);
      }),
  };
}
