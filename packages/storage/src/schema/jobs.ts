/** Bulk jobs and imports: durable work, claimed and resumed by any instance. Conventions: ../schema.ts. */
import type { Generated } from 'kysely';

export interface JobsTable {
  id: Generated<number>;
  public_id: string;
  kind: string;
  status: string;
  /** JSON of the submitting actor (jobs/job.ts StoredActor) */
  actor: string;
  request_id: string;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  created_at: string;
  completed_at: string | null;
  error_message: string | null;
  /** the process running the job (its instance id) and until when, absent when none is */
  lease_owner: string | null;
  lease_expires_at: string | null;
  /** the submitting user's internal id; null for the command line */
  created_by_id: number | null;
}

export interface JobItemsTable {
  job_id: number;
  position: number;
  /** the item as submitted, JSON */
  payload: string;
  /** null until processed; then 'succeeded' | 'failed' */
  outcome: string | null;
  error_code: string | null;
  /** the resource the item created, updated or found (a duplicate's existing user too) */
  public_id: string | null;
  /** 1 created, 0 found or updated, null when failed or not yet processed */
  created: number | null;
  error_message: string | null;
}

export interface ImportsTable {
  id: Generated<number>;
  public_id: string;
  kind: string;
  /** `receiving` while the file streams in, then the import's status */
  status: string;
  dry_run: number;
  update_existing: number;
  filename: string | null;
  /** JSON array: the header as written */
  header: string;
  /** JSON of the submitting actor (jobs/job.ts StoredActor) */
  actor: string;
  created_by_id: number | null;
  request_id: string;
  job_id: number | null;
  total_rows: number | null;
  /** the last row whose outcome is recorded */
  done_through: Generated<number>;
  processed: Generated<number>;
  created: Generated<number>;
  existing: Generated<number>;
  updated: Generated<number>;
  valid: Generated<number>;
  failed: Generated<number>;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface ImportRowsTable {
  import_id: number;
  /** 1-based data row */
  row: number;
  /** JSON array of the cells; a cell that was not UTF-8 is '' */
  cells: string;
  /** JSON array of the indexes of the cells that were not UTF-8, or null */
  bad_fields: string | null;
  /** 1 when the row was longer than the record limit and was not read (no cells), else null */
  too_long: number | null;
}

export interface ImportResultsTable {
  import_id: number;
  row: number;
  status: string;
  public_id: string | null;
  error_code: string | null;
  error_message: string | null;
  /** what makes two rows about the same resource (duplicate_row), once known */
  identity: string | null;
}
