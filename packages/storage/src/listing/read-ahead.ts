/**
 * An export's rows read ahead in pieces larger than its batches, where each read is handed to
 * another thread (SQLite's read threads). Every hand-over costs a message each way and, on a busy
 * machine, a wait for a core for each thread it wakes; at 500 rows a read that wait cost more than
 * the rows. So each read takes several batches' rows at once, the export takes its batches from
 * them, and the next read starts while half a read's rows are still to be taken: the thread reads
 * while the request thread encodes and writes.
 *
 * Each read is a keyset read after the last row of the one before, as a batch is: what an export
 * guarantees is unchanged (the list's order, every row once, each read sees what was committed
 * when it ran); only fewer, larger reads make it up.
 */
import type { HeldListRead } from '@lectern/core';
import type { RowPieces } from '../shared/offloaded-reads.ts';

type Row = Record<string, unknown>;

/**
 * Batches an export takes from one read on a read thread: 2 000 rows a hand-over at 500 a batch.
 * Measured on 200 000 assignments (quiet machine, back to back with one batch a read): about 15 %
 * more rows a second with the server on two cores, 5 % on one; ten batches a read held 30 MB more
 * of the server's memory at full speed for nothing more.
 */
export const READ_AHEAD_BATCHES = 4;

/**
 * The list after `from` (sort key values, null for its start), read `chunk` rows at a time by
 * `read(after, chunk)`; `keysOf` gives the sort key values of a row read, where the next read
 * starts after it. The rows read stay in their pieces until a batch takes them.
 */
export function readAhead(
  read: (after: readonly unknown[] | null, rows: number) => Promise<RowPieces>,
  chunk: number,
  keysOf: (row: Row) => readonly unknown[],
  from: readonly unknown[] | null,
): HeldListRead {
  /** pieces read and not yet made into rows */
  const waiting: Array<() => unknown[]> = [];
  /** rows made and not yet taken, from `at` on */
  let rows: Row[] = [];
  let at = 0;
  let buffered = 0;
  let after = from;
  let ended = false;
  let closed = false;
  /** the read under way; a failed one stays here, so the read that waits for it fails with it */
  let reading: Promise<void> | undefined;

  const readNext = () => {
    reading = read(after, chunk).then(({ count, pieces }) => {
      reading = undefined;
      if (closed) return;
      if (count < chunk) ended = true;
      if (count === 0) return;
      // the last piece is made now: its last row's keys are where the next read starts
      const last = pieces[pieces.length - 1]!();
      after = keysOf(last[last.length - 1] as Row);
      waiting.push(...pieces.slice(0, -1), () => last);
      buffered += count;
    });
    // met where it is awaited (take), or by nobody once the export stopped
    reading.catch(() => undefined);
  };

  const take = (wanted: number): Row[] => {
    const taken: Row[] = [];
    while (taken.length < wanted) {
      if (at === rows.length) {
        const next = waiting.shift();
        if (!next) break;
        rows = next() as Row[];
        at = 0;
        continue;
      }
      const end = Math.min(rows.length, at + wanted - taken.length);
      for (let n = at; n < end; n++) taken.push(rows[n]!);
      at = end;
    }
    if (at === rows.length) rows = [];
    buffered -= taken.length;
    return taken;
  };

  return {
    async read(wanted) {
      if (closed) throw new Error("the export's rows were let go of before the list ended");
      while (buffered < wanted && !ended) {
        if (reading === undefined) readNext();
        await reading;
        if (closed) throw new Error("the export's rows were let go of before the list ended");
      }
      const taken = take(wanted);
      if (!ended && reading === undefined && buffered <= chunk / 2) readNext();
      return taken;
    },
    async close() {
      closed = true;
      waiting.length = 0;
      rows = [];
      buffered = 0;
    },
  };
}
