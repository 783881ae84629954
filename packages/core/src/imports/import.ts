/**
 * A CSV import on the server (docs/imports.md): the file is stored row by row when it is
 * uploaded, then processed by the job engine in chunks; the report is the rows processed so far.
 */
import { z } from 'zod';
import { listed, listSpecOf } from '../shared/listed-fields.ts';
import { userRefSchema } from '../shared/schema.ts';
import { importKinds, type ImportKindName } from './import-kinds.ts';
import type { StoredActor } from '../jobs/job.ts';

export const importStatuses = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export type ImportStatus = (typeof importStatuses)[number];
export const isFinished = (status: ImportStatus): boolean => status === 'completed' || status === 'failed' || status === 'cancelled';

/** The statuses a row can have in the report; `valid` only in a dry run. */
export const rowStatuses = ['created', 'existing', 'updated', 'valid', 'failed'] as const;
export type RowStatus = (typeof rowStatuses)[number];

export const importSchema = z.object({
  id: z.string(),
  kind: listed(z.enum(importKinds), { filter: true }),
  status: listed(z.enum(importStatuses), { filter: true }),
  dry_run: z.boolean(),
  update: z.boolean(),
  filename: z.string().nullable(),
  /** null until the upload is counted (it always is by the time the import is answered) */
  total_rows: z.number().int().nullable(),
  processed: z.number().int(),
  created: z.number().int(),
  existing: z.number().int(),
  updated: z.number().int(),
  valid: z.number().int(),
  failed: z.number().int(),
  /** why the whole import failed; null otherwise (row failures are in the report) */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_by: userRefSchema.nullable(),
  created_at: listed(z.string(), { sort: true }),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
});
export type Import = z.infer<typeof importSchema>;

export const importListSpec = listSpecOf(importSchema, { defaultOrdering: ['-created_at'] });

export interface ImportRecord {
  id: number;
  /** the job that processes it; null while the file is still being received */
  jobId: number | null;
  kind: ImportKindName;
  /** the header as written, for the report */
  header: string[];
  actor: StoredActor;
  requestId: string;
  /** the submitter's internal id, for "organizers see their own" */
  createdById: number | null;
  /** the last row (1-based) whose outcome is recorded: rows after it are still to do */
  doneThrough: number;
  view: Import;
}

/** One report line: a processed row and its input cells. */
export interface ReportRow {
  row: number;
  status: RowStatus;
  publicId: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  cells: string[];
}
