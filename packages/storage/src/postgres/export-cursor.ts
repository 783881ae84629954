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
    try {
      await client.query('begin isolation level repeatable read read only');
      await client.query({ text: `declare ${CURSOR} no scroll cursor for ${text}`, values: parameters as unknown[] });
    } catch (error) {
      await end();
      throw error;
    }
    let finished = false;
    const cursor: HeldListRead = {
      read: async (rows) => {
        if (finished) return [];
        // closed before the list's end (the server stopping, the connection lost): never a short list
        if (ended) throw new Error("the export's cursor was closed before the end of the list");
        try {
          const { rows: read } = await client.query(`fetch forward ${Math.max(1, Math.floor(rows))} from ${CURSOR}`);
          // the end of the list: the connection is given back at once, not when the export ends
          finished = read.length < rows;
          if (finished) await cursor.close();
          return read as unknown[];
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
