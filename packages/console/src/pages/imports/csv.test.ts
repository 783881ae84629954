import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCsv } from './csv.ts';

describe('parseCsv (the import report as the server writes it)', () => {
  it('splits rows and fields, with CRLF or LF line ends', () => {
    assert.deepEqual(parseCsv('row,status\r\n1,created\n2,failed\n'), [
      ['row', 'status'],
      ['1', 'created'],
      ['2', 'failed'],
    ]);
  });

  it('keeps commas, doubled quotes and line breaks inside quoted fields', () => {
    assert.deepEqual(parseCsv('a,b\n"x, y","say ""hi""\nthere"\n'), [
      ['a', 'b'],
      ['x, y', 'say "hi"\nthere'],
    ]);
  });

  it('keeps empty cells and a last line without a line end', () => {
    assert.deepEqual(parseCsv('a,b,c\n1,,3'), [
      ['a', 'b', 'c'],
      ['1', '', '3'],
    ]);
  });
});
