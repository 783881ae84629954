/**
 * Reading an import's CSV: UTF-8 with or without a byte-order mark, CRLF or LF, quoted fields with
 * commas, quotes and newlines; blank lines (and lines of empty fields only, as spreadsheets leave
 * at the end) are not data rows. Shared by the server's upload and the CLI's offline dry run.
 *
 * Text safety: csv-parse decodes its fields as UTF-8 and silently turns bytes that are not UTF-8
 * into U+FFFD. So the parser reads the bytes as latin1 — one character per byte, which leaves every
 * CSV delimiter in place, since no byte of a multi-byte UTF-8 sequence is ASCII — and each field
 * with a byte above 0x7f is checked and decoded here. A field that is not UTF-8 is never decoded:
 * the record says so, and its row fails without the bytes being kept.
 *
 * A record longer than MAX_RECORD_BYTES, or with more fields than the import's kind has columns
 * plus FIELD_MARGIN, never reaches the parser (record-length-guard.ts): it is read as a record
 * that says so, its row fails, and the rows after it are read as usual. Neither the parser's
 * buffer nor anything else holds more than the limit of it (a single 200 MB cell would otherwise
 * be held whole, and a row of 400 000 empty fields built into as many strings).
 */
import { isUtf8 } from 'node:buffer';
import { CsvError, parse } from 'csv-parse';
import { guardRecordLength, TOO_LONG_MARKER } from './record-length-guard.ts';

/** The longest record (a line, with its quoted line breaks) an import accepts, in bytes. */
export const MAX_RECORD_BYTES = 1024 * 1024;

/**
 * Fields a record may have beyond its kind's columns: room for the empty columns spreadsheets
 * leave at a row's end, far from what would cost memory.
 */
export const FIELD_MARGIN = 8;

/** The most fields a record of a kind with `columns` columns may have before it is dropped unread. */
export const maxFieldsFor = (columns: number): number => columns + FIELD_MARGIN;

export interface CsvRecord {
  /** the line the record ends on, for messages */
  line: number;
  /** the fields, decoded; a field that is not UTF-8 is '' here and named in `badFields` */
  cells: string[];
  /** 0-based indexes of the fields whose bytes are not UTF-8; undefined when every field is */
  badFields?: number[];
  /** the record was longer or wider than the limits and was not read: no cells */
  tooLong?: true;
}

/** The input is not CSV the importer can read (broken quoting, a record over the size limit). */
export class CsvFormatError extends Error {}

const UTF8_BOM_AS_LATIN1 = '\u00ef\u00bb\u00bf';
const NON_ASCII = /[\u0080-\u00ff]/;

/** Reads records from the bytes of a CSV file, in order; throws CsvFormatError when they are not CSV. */
export async function* readCsvRecords(
  source: AsyncIterable<Buffer | Uint8Array>,
  maxRecordBytes = MAX_RECORD_BYTES,
  maxFields = Infinity,
): AsyncGenerator<CsvRecord> {
  const parser = parse({
    encoding: 'latin1',
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    // the guard keeps longer records out; this is a second line should the two ever count apart
    max_record_size: 2 * maxRecordBytes + 64,
    info: true,
  });
  const feeding = feed(guardRecordLength(source, maxRecordBytes, maxFields), parser);
  let first = true;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (first) {
        first = false;
        if (record[0]?.startsWith(UTF8_BOM_AS_LATIN1)) record[0] = record[0].slice(UTF8_BOM_AS_LATIN1.length);
      }
      if (record.length === 1 && record[0] === TOO_LONG_MARKER) yield { line: info.lines, cells: [], tooLong: true };
      else yield decodeRecord(record, info.lines);
    }
  } catch (error) {
    throw asFormatError(error, maxRecordBytes);
  } finally {
    parser.destroy();
  }
  await feeding;
}

/** Writes the source into the parser with back-pressure; a failing source fails the parser. */
async function feed(source: AsyncIterable<Buffer | Uint8Array>, parser: ReturnType<typeof parse>): Promise<void> {
  try {
    for await (const chunk of source) {
      if (parser.destroyed) return;
      if (!parser.write(chunk))
        await new Promise<void>((resolve) => {
          const done = () => {
            parser.off('drain', done);
            parser.off('close', done);
            resolve();
          };
          parser.on('drain', done);
          parser.on('close', done);
        });
    }
    if (!parser.destroyed) parser.end();
  } catch (error) {
    parser.destroy(error as Error);
  }
}

function decodeRecord(fields: string[], line: number): CsvRecord {
  let badFields: number[] | undefined;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (!NON_ASCII.test(field)) continue;
    const bytes = Buffer.from(field, 'latin1');
    if (isUtf8(bytes)) fields[i] = bytes.toString('utf8');
    else {
      fields[i] = '';
      (badFields ??= []).push(i);
    }
  }
  return badFields ? { line, cells: fields, badFields } : { line, cells: fields };
}

function asFormatError(error: unknown, maxRecordBytes: number): unknown {
  if (!(error instanceof CsvError)) return error;
  const code = error.code;
  const line = (error as { lines?: number }).lines;
  const where = line !== undefined ? ` (line ${line})` : '';
  if (code === 'CSV_MAX_RECORD_SIZE') {
    return new CsvFormatError(`a row is longer than the limit of ${maxRecordBytes} bytes${where}`);
  }
  return new CsvFormatError(`the file is not valid CSV${where}: ${(error as Error).message}`);
}
