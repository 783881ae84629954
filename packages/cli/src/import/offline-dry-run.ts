/**
 * The dry run of a users file without a server (no `--url`): the rows are checked with core's
 * shared row rules, as the server checks them, and duplicate rows found the same way. Nothing is
 * looked up, so an email already taken is still `valid` here (the server would report `existing`).
 */
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import {
  checkRow,
  CsvFormatError,
  csvLine,
  csvLines,
  HeaderError,
  IMPORT_KINDS,
  mapColumns,
  MAX_RECORD_BYTES,
  maxFieldsFor,
  readCsvRecords,
  REPORT_COLUMNS,
  rowIdentity,
  unreadRowFailure,
  type ColumnMap,
  type CsvCell,
} from '@lectern/core';
import { SeenRows } from './seen-rows.ts';
import type { ImportSummary } from './run-import.ts';

/** The file cannot be read as CSV, or its header is wrong: exit 2. */
export class FileError extends Error {}

export async function offlineUsersDryRun(file: string, report: FileHandle): Promise<ImportSummary> {
  const kind = IMPORT_KINDS.users;
  const summary: ImportSummary = { total: 0, created: 0, existing: 0, updated: 0, valid: 0, failed: 0, stopped: null };
  const seen = new SeenRows();
  let columns: ColumnMap | undefined;
  let pending: CsvCell[][] = [];
  const flush = async () => {
    if (pending.length > 0) await report.write(csvLines(pending));
    pending = [];
  };
  try {
    for await (const record of readCsvRecords(createReadStream(file), MAX_RECORD_BYTES, maxFieldsFor(kind.columns.length))) {
      if (!columns) {
        if (record.badFields) throw new FileError('the header row is not valid UTF-8');
        if (record.tooLong) throw new FileError(`the header row is longer than the limit of ${MAX_RECORD_BYTES} bytes`);
        columns = mapColumns(kind, record.cells);
        await report.write(csvLine([...REPORT_COLUMNS, ...columns.header]));
        continue;
      }
      const row = ++summary.total;
      let outcome: { status: 'valid' | 'failed'; code?: string; message?: string };
      const unread = unreadRowFailure(record, columns.header);
      if (unread) {
        outcome = { status: 'failed', ...unread };
      } else {
        const check = checkRow(kind, columns, record.cells);
        if (!check.ok) outcome = { status: 'failed', code: check.code, message: check.message };
        else {
          const first = seen.firstOrRemember(rowIdentity(kind, check.item), row);
          outcome =
            first === undefined
              ? { status: 'valid' }
              : { status: 'failed', code: 'duplicate_row', message: `Row ${first} has the same ${kind.identity.join(' and ')}.` };
        }
      }
      summary[outcome.status]++;
      pending.push([row, outcome.status, null, outcome.code ?? null, outcome.message ?? null, ...record.cells]);
      if (pending.length >= 1000) await flush();
    }
  } catch (error) {
    if (error instanceof HeaderError) throw new FileError(`the header is not usable: ${error.message}`);
    if (error instanceof CsvFormatError) throw new FileError(error.message);
    if ((error as NodeJS.ErrnoException).code?.startsWith('E')) throw new FileError(`cannot read ${file}: ${(error as Error).message}`);
    throw error;
  }
  if (!columns) throw new FileError(`${file} is empty: it needs a header row`);
  await flush();
  return summary;
}
