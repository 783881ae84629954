import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RowPieces } from '../shared/offloaded-reads.ts';
import { readAhead } from './read-ahead.ts';

type Row = Record<string, unknown>;

/** Rows as a read thread gives them: in pieces of three, each made into rows once, when taken. */
function inPieces(rows: Row[]): RowPieces {
  const pieces: Array<() => unknown[]> = [];
  for (let at = 0; at < rows.length; at += 3) {
    let made = false;
    pieces.push(() => {
      assert.equal(made, false, 'a piece is made once');
      made = true;
      return rows.slice(at, at + 3);
    });
  }
  return { count: rows.length, pieces };
}

/** A list of `size` rows keyed 1…size, read after a key as a keyset read is; every read is logged. */
function list(size: number) {
  const reads: Array<{ after: number; rows: number }> = [];
  const gates: Array<() => void> = [];
  let held = false;
  const read = async (after: readonly unknown[] | null, rows: number): Promise<RowPieces> => {
    const from = after === null ? 0 : (after[0] as number);
    reads.push({ after: from, rows });
    if (held) await new Promise<void>((open) => gates.push(open));
    const found: Row[] = [];
    for (let key = from + 1; key <= Math.min(size, from + rows); key++) found.push({ key });
    return inPieces(found);
  };
  return {
    read,
    reads,
    /** reads wait until let go, so a test sees what is asked while one is under way */
    hold: () => (held = true),
    letGo: () => {
      held = false;
      for (const open of gates.splice(0)) open();
    },
  };
}

const keysOf = (row: Row) => [row.key];

describe('reading an export ahead', () => {
  it('gives every row once, in order, in batches, from reads of several batches each', async () => {
    for (const size of [0, 1, 19, 20, 21, 59, 60, 61]) {
      const source = list(size);
      const ahead = readAhead(source.read, 20, keysOf, null);
      const taken: unknown[] = [];
      for (;;) {
        const rows = (await ahead.read(5)) as Row[];
        taken.push(...rows.map((row) => row.key));
        if (rows.length < 5) break;
      }
      assert.deepEqual(
        taken,
        Array.from({ length: size }, (_, n) => n + 1),
        `${size} rows`,
      );
      // each read starts after the last row of the one before, and no read is asked twice
      for (const [n, read] of source.reads.entries()) assert.equal(read.after, n * 20, `${size} rows, read ${n}`);
      assert.ok(source.reads.length <= Math.floor(size / 20) + 1, `${size} rows: ${source.reads.length} reads`);
    }
  });

  it('starts from the keys it is given', async () => {
    const source = list(30);
    const ahead = readAhead(source.read, 10, keysOf, [25]);
    assert.deepEqual(
      ((await ahead.read(10)) as Row[]).map((row) => row.key),
      [26, 27, 28, 29, 30],
    );
  });

  it('asks for the next read while half a read is still to be taken, and only one at a time', async () => {
    const source = list(100);
    const ahead = readAhead(source.read, 20, keysOf, null);
    await ahead.read(5); // 15 left of the first read
    assert.equal(source.reads.length, 1);
    source.hold();
    await ahead.read(5); // 10 left: the second read is asked for
    assert.equal(source.reads.length, 2);
    await ahead.read(5);
    await ahead.read(5); // the first read's rows are all taken; the second still under way
    assert.equal(source.reads.length, 2);
    const waiting = ahead.read(5);
    source.letGo();
    assert.deepEqual(
      ((await waiting) as Row[]).map((row) => row.key),
      [21, 22, 23, 24, 25],
    );
  });

  it('fails the batch that waits for a failed read, and every later one: never a short export', async () => {
    let reads = 0;
    const ahead = readAhead(
      async (after) => {
        if (++reads === 2) throw new Error('disk I/O error');
        const from = after === null ? 0 : (after[0] as number);
        return inPieces(Array.from({ length: 4 }, (_, n) => ({ key: from + n + 1 })));
      },
      4,
      keysOf,
      null,
    );
    assert.equal((await ahead.read(2)).length, 2);
    assert.equal((await ahead.read(2)).length, 2);
    await assert.rejects(ahead.read(2), /disk I\/O error/);
    await assert.rejects(ahead.read(2), /disk I\/O error/);
  });

  it('refuses to read once closed, and drops what it held', async () => {
    const source = list(100);
    const ahead = readAhead(source.read, 20, keysOf, null);
    await ahead.read(5);
    await ahead.close();
    await assert.rejects(ahead.read(5), /let go of/);
  });
});
