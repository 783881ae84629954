import type { ImportKindName } from '../imports/import-kinds.ts';
import type { ImportRecord, ImportStatus, ReportRow, RowStatus } from '../imports/import.ts';
import type { StoredActor } from '../jobs/job.ts';
import type { ListQuery, Page } from '../shared/list-query.ts';

export interface NewImportRow {
  publicId: string;
  kind: ImportKindName;
  dryRun: boolean;
  update: boolean;
  filename: string | null;
  header: string[];
  actor: StoredActor;
  createdById: number | null;
  requestId: string;
  createdAt: string;
}

/** A data row as uploaded: its cells, and the cells whose bytes were not UTF-8 (stored as ''). */
export interface StagedRow {
  row: number;
  cells: string[];
  badFields: number[] | null;
  /** longer than the record limit: not read, no cells */
  tooLong: boolean;
}

/** What processing a row came to; `identity` is kept to find later rows about the same resource. */
export interface RowOutcome {
  row: number;
  status: RowStatus;
  publicId: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  identity: string | null;
}

/** Server-side CSV imports: the import, its uploaded rows and their outcomes. */
export interface ImportStore {
  /** Stores the import as still receiving its file: no job yet, so not listed nor processed. */
  insert(row: NewImportRow): Promise<number>;
  /** Adds uploaded rows (in row order, in batches as the file streams in). */
  stageRows(importId: number, rows: readonly StagedRow[]): Promise<void>;
  /** Forgets an upload that was refused, with its rows. */
  discard(importId: number): Promise<void>;
  /** Removes uploads left receiving since before `before` (a process that died mid-upload). */
  discardAbandoned(before: string): Promise<number>;
  /** The file is all stored: links the job that will process it and records the row count. */
  submitted(importId: number, jobId: number, totalRows: number): Promise<void>;
  findById(id: number): Promise<ImportRecord | undefined>;
  findByPublicId(publicId: string): Promise<ImportRecord | undefined>;
  findByJobId(jobId: number): Promise<ImportRecord | undefined>;
  /** Submitted imports of these kinds; `createdById` narrows to one submitter's. */
  list(query: ListQuery, createdById: number | null, kinds: readonly ImportKindName[]): Promise<Page<ImportRecord>>;
  /**
   * Before a chunk, outside its transaction: starts refreshing the statistics of the tables its
   * lookups read that the import has grown, on a database whose statistics lag them (PostgreSQL's),
   * beside the chunks rather than before them (nothing waits for it).
   */
  analyzeGrownTables(): void;
  /**
   * Readies a chunk's transaction, whose every read is a lookup by key, for a database whose
   * planner would otherwise scan (PostgreSQL's).
   */
  preferIndexLookups(): Promise<void>;
  /** The next `limit` rows after `doneThrough`, in row order. */
  rowsAfter(importId: number, doneThrough: number, limit: number): Promise<StagedRow[]>;
  /** The first processed row with each of these identities. */
  firstRowsOf(importId: number, identities: readonly string[]): Promise<Map<string, number>>;
  /**
   * Records the outcomes of the rows after `doneThrough` (in row order, consecutive), adds them to
   * the counts and moves `doneThrough` to the last one, in one go: the caller's transaction makes
   * that exactly once.
   */
  recordOutcomes(importId: number, outcomes: readonly RowOutcome[]): Promise<void>;
  /** Fails every row after `doneThrough` with `cancelled` and counts them. */
  cancelRemaining(importId: number, message: string): Promise<void>;
  setStatus(
    importId: number,
    status: ImportStatus,
    times?: { startedAt?: string; completedAt?: string; error?: { code: string; message: string } },
  ): Promise<void>;
  /** Processed rows after `afterRow`, in row order, with their input cells. */
  reportRows(importId: number, afterRow: number, limit: number): Promise<ReportRow[]>;
  /** How many imports there are of each kind and status, uploads still receiving left out (the metrics endpoint asks at every scrape). */
  countByKindAndStatus(): Promise<Array<{ kind: string; status: ImportStatus; count: number }>>;
}
