import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { readCsvRecords, type CsvRecord } from './csv-records.ts';

/** The records of `text` fed in pieces of the given sizes (the rest in one piece). */
async function recordsOf(text: string | Buffer, limit: number, pieces: number[] = [], maxFields = Infinity): Promise<CsvRecord[]> {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  async function* source() {
    let at = 0;
    for (const size of pieces) {
      if (at >= bytes.length) break;
      yield bytes.subarray(at, at + size);
      at += size;
    }
    if (at < bytes.length) yield bytes.subarray(at);
  }
  const records: CsvRecord[] = [];
  for await (const record of readCsvRecords(source(), limit, maxFields)) records.push(record);
  return records;
}

const shape = (records: CsvRecord[]) => records.map((record) => (record.tooLong ? 'TOO LONG' : record.cells.join('|')));

describe('CSV records', () => {
  it('read a row over the limit as too long, without its cells, and the rows after it as usual', async () => {
    const long = 'x'.repeat(200);
    const text = `email,name\r\na@x.io,Ann\r\nb@x.io,"${long}\r\n${long}"\r\nc@x.io,"Cy, ""the"" third"\r\n"${long}${long}"\r\nd@x.io,Di`;
    assert.deepEqual(shape(await recordsOf(text, 300)), [
      'email|name',
      'a@x.io|Ann',
      'TOO LONG',
      'c@x.io|Cy, "the" third',
      'TOO LONG',
      'd@x.io|Di',
    ]);
    // a record under the limit keeps its quoted line breaks
    assert.deepEqual(shape(await recordsOf(`a,"b\nc"\n`, 300)), ['a|b\nc']);
  });

  it('read the same records however the bytes are split into chunks', async () => {
    const row = fc.tuple(fc.constantFrom('a', 'bb', '"q, ""x"""', '"line\nbreak"', 'é'), fc.integer({ min: 0, max: 40 }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 17 }), { maxLength: 40 }),
        async (rows, pieces) => {
          const text = rows.map(([cell, pad]) => `${cell},${'p'.repeat(pad)}`).join('\n') + '\n';
          const whole = shape(await recordsOf(text, 30));
          assert.deepEqual(shape(await recordsOf(text, 30, pieces)), whole);
          // the rows over the limit are exactly those whose bytes exceed it
          const expected = rows.map(([cell, pad]) => Buffer.byteLength(`${cell},${'p'.repeat(pad)}`) > 30);
          assert.deepEqual(
            whole.map((record) => record === 'TOO LONG'),
            expected,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('read a row with more fields than the limit as too long, counting only commas outside quotes', async () => {
    const text = 'a,b,c\n1,2,3\n1,2,3,4\n"1,2,3,4",5\n1,2,3,,,,,\n"x\ny",2,3\n';
    assert.deepEqual(shape(await recordsOf(text, 300, [], 3)), ['a|b|c', '1|2|3', 'TOO LONG', '1,2,3,4|5', 'TOO LONG', 'x\ny|2|3']);
    // however the bytes are split
    assert.deepEqual(shape(await recordsOf(text, 300, [1, 2, 3, 4, 5, 6, 7], 3)), shape(await recordsOf(text, 300, [], 3)));
  });

  it('read a last row over the limit without a line end, and a file of one long row', async () => {
    assert.deepEqual(shape(await recordsOf(`h\n${'y'.repeat(50)}`, 20)), ['h', 'TOO LONG']);
    assert.deepEqual(shape(await recordsOf('z'.repeat(50), 20, [7, 7, 7])), ['TOO LONG']);
  });
});
