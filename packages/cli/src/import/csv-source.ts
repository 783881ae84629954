/**
 * Reading the input file: UTF-8 with or without a byte-order mark, CRLF or LF, quoted fields
 * with commas, quotes and newlines. Records stream one at a time; blank lines (and lines of
 * empty fields only, as spreadsheets leave at the end) are not data rows.
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { mapColumns, type ColumnMap } from './columns.ts';
import type { ImportKind } from './import-kinds.ts';

/** The file cannot be read as CSV: nothing is sent (exit 2). */
export class FileError extends Error {}

export function openRecords(file: string): AsyncIterable<string[]> {
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
  });
  const input = createReadStream(file);
  input.on('error', (error) => parser.destroy(error));
  return input.pipe(parser);
}

export interface FileScan {
  columns: ColumnMap;
  /** data rows */
  total: number;
  /** distinct `user_email` values, counted up to `emailCap` */
  distinctEmails: number;
}

/**
 * The cheap first pass: checks the header and that the whole file parses, counts the rows for
 * the progress bar, and counts distinct user emails (up to a cap) to choose how to resolve them.
 */
export async function scanFile(file: string, kind: ImportKind, emailCap: number): Promise<FileScan> {
  let columns: ColumnMap | undefined;
  let total = 0;
  const emails = new Set<string>();
  let emailIndex: number | undefined;
  try {
    for await (const record of openRecords(file)) {
      if (!columns) {
        columns = mapColumns(kind, record);
        emailIndex = columns.indexOf.get('user_email');
        continue;
      }
      total++;
      if (emailIndex !== undefined && emails.size < emailCap) {
        const email = record[emailIndex]?.trim().toLowerCase();
        if (email) emails.add(email);
      }
    }
  } catch (error) {
    if (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('CSV_')) {
      throw new FileError(`${file} is not valid CSV: ${error.message}`);
    }
    if (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('E')) {
      throw new FileError(`cannot read ${file}: ${error.message}`);
    }
    throw error;
  }
  if (!columns) throw new FileError(`${file} is empty: it needs a header row`);
  return { columns, total, distinctEmails: emails.size };
}
