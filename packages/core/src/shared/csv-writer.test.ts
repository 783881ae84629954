import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { csvLine, csvLines, csvStream } from './csv-writer.ts';

describe('the CSV writer', () => {
  it('writes a text cell a spreadsheet would run with a leading quote', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      const cell = `${start}HYPERLINK("http://x")`;
      const [written] = parse(csvLine([cell])) as string[][];
      assert.deepEqual(written, [`'${cell}`], JSON.stringify(start));
    }
  });

  it('leaves other text, numbers (negative ones too) and quote-needing cells alone', () => {
    assert.equal(csvLine(['Ada', -3, 2.5, 'a,b', 'say "hi"', 'x-y']), 'Ada,-3,2.5,"a,b","say ""hi""",x-y\n');
  });

  it('quotes a guarded cell that also needs CSV quoting, and it reads back', () => {
    const line = csvLine(['=SUM(A1,B1)', 'two\nlines']);
    assert.deepEqual(parse(line), [["'=SUM(A1,B1)", 'two\nlines']]);
  });

  it('writes null and undefined as empty cells, booleans as words, arrays and objects as JSON', () => {
    assert.equal(csvLine([null, undefined, true, false, ['a', 'b'], []]), ',,true,false,"[""a"",""b""]",[]\n');
    assert.deepEqual(parse(csvLine([{ a: 1 }])), [['{"a":1}']]);
  });

  it('writes several lines in one call, the same as line by line', () => {
    const rows = [
      ['a', 1],
      ['=b', null],
    ];
    assert.equal(csvLines(rows), rows.map(csvLine).join(''));
    assert.equal(csvLines([]), '');
  });

  it('streams rows as text with the same rules', async () => {
    const stream = csvStream();
    const chunks: string[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    const ended = new Promise((resolve) => stream.on('end', resolve));
    stream.write(['row', 'status']);
    stream.write(['1', '@sum']);
    stream.end();
    await ended;
    assert.equal(chunks.join(''), "row,status\n1,'@sum\n");
  });
});
