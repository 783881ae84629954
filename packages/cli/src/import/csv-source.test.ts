import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { FileError, openRecords, scanFile } from './csv-source.ts';
import { HeaderError } from './columns.ts';
import { IMPORT_KINDS } from './import-kinds.ts';
import { ReportWriter } from './report-writer.ts';

const dir = mkdtempSync(join(tmpdir(), 'lectern-import-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

describe('reading an import file', () => {
  it('reads a BOM, CRLF, quoted commas, quotes and newlines, and skips blank lines', async () => {
    const path = file(
      'hostile.csv',
      '\uFEFFuser_email,Content_Item_ID\r\n"a@x.io","id, 1"\r\n\r\n"b@x.io","say ""hi""\r\nthen go"\r\n,\r\nA@X.io,id3\r\n\r\n\r\n',
    );
    const records: string[][] = [];
    for await (const record of openRecords(path)) records.push(record);
    assert.deepEqual(records, [
      ['user_email', 'Content_Item_ID'],
      ['a@x.io', 'id, 1'],
      ['b@x.io', 'say "hi"\r\nthen go'],
      ['A@X.io', 'id3'],
    ]);
    const scan = await scanFile(path, IMPORT_KINDS.assignments, 10);
    assert.equal(scan.total, 3);
    assert.equal(scan.distinctEmails, 2, 'emails compare without case');
    assert.equal((await scanFile(path, IMPORT_KINDS.assignments, 1)).distinctEmails, 1, 'counting stops at the cap');
  });

  it('refuses a missing file, an empty one, a bad header and broken quoting', async () => {
    await assert.rejects(
      scanFile(join(dir, 'absent.csv'), IMPORT_KINDS.users, 1),
      (e: Error) => e instanceof FileError && /cannot read .*ENOENT/.test(e.message),
    );
    await assert.rejects(scanFile(file('empty.csv', '\r\n\r\n'), IMPORT_KINDS.users, 1), /is empty: it needs a header row/);
    await assert.rejects(scanFile(file('header.csv', 'email,name,age\n'), IMPORT_KINDS.users, 1), HeaderError);
    await assert.rejects(
      scanFile(file('quote.csv', 'email,name\na@x.io,"Ann\n'), IMPORT_KINDS.users, 1),
      /is not valid CSV: Quote Not Closed/,
    );
  });
});

describe('the report', () => {
  it('holds the status columns, then the input’s cells unchanged', async () => {
    const path = join(dir, 'report.csv');
    const report = await ReportWriter.open(path, ['Email', 'name']);
    await report.writeRow(1, { status: 'created', public_id: 'p1' }, ['a@x.io', 'Ann, "A"\nB']);
    await report.writeRow(2, { status: 'failed', error_code: 'validation_error', error_message: 'email: bad, really' }, ['bad', '']);
    await report.close();
    assert.deepEqual(parse(readFileSync(path)), [
      ['row', 'status', 'public_id', 'error_code', 'error_message', 'Email', 'name'],
      ['1', 'created', 'p1', '', '', 'a@x.io', 'Ann, "A"\nB'],
      ['2', 'failed', '', 'validation_error', 'email: bad, really', 'bad', ''],
    ]);
  });

  it('cannot be opened in a missing folder', async () => {
    await assert.rejects(ReportWriter.open(join(dir, 'no', 'such', 'report.csv'), []), /ENOENT/);
  });
});
