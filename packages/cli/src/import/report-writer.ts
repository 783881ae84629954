/**
 * The report CSV: one line per data row, written as the run goes so an interrupted run still
 * leaves every row it settled on disk.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { stringify } from 'csv-stringify';

export const reportStatuses = ['created', 'existing', 'updated', 'valid', 'failed'] as const;
export type ReportStatus = (typeof reportStatuses)[number];

export interface RowOutcome {
  status: ReportStatus;
  public_id?: string | null;
  error_code?: string;
  error_message?: string;
}

export const REPORT_COLUMNS = ['row', 'status', 'public_id', 'error_code', 'error_message'] as const;

export class ReportWriter {
  private readonly csv = stringify();
  private readonly file;

  private constructor(path: string) {
    this.file = createWriteStream(path);
    this.csv.pipe(this.file);
  }

  /** Opens (truncates) the file; rejects when it cannot be written, before anything is sent. */
  static async open(path: string, inputHeader: readonly string[]): Promise<ReportWriter> {
    const writer = new ReportWriter(path);
    await Promise.race([
      once(writer.file, 'ready'),
      once(writer.file, 'error').then(([error]) => {
        throw error;
      }),
    ]);
    await writer.write([...REPORT_COLUMNS, ...inputHeader]);
    return writer;
  }

  writeRow(row: number, outcome: RowOutcome, cells: readonly string[]): Promise<void> {
    return this.write([
      String(row),
      outcome.status,
      outcome.public_id ?? '',
      outcome.error_code ?? '',
      outcome.error_message ?? '',
      ...cells,
    ]);
  }

  async close(): Promise<void> {
    this.csv.end();
    await once(this.file, 'close');
  }

  private async write(line: readonly string[]): Promise<void> {
    if (!this.csv.write(line)) await once(this.csv, 'drain');
  }
}
