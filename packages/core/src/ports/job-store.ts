import type { BulkJobSummary } from '../jobs/bulk-job-summary.ts';
import type { JobItem, JobRecord, JobStatus, StoredActor } from '../jobs/job.ts';
import type { ListQuery, Page } from '../shared/list-query.ts';

export interface NewJobRow {
  publicId: string;
  kind: string;
  actor: StoredActor;
  requestId: string;
  createdAt: string;
}

export interface PendingJobItem {
  position: number;
  payload: unknown;
}

/** What processing an item came to, stored with it for the items route. */
export type JobItemOutcome =
  | { status: 'succeeded'; publicId: string; created: boolean }
  | { status: 'failed'; publicId: string | null; errorCode: string; errorMessage: string };

/** A job as the bulk-job list shows it, its kind as stored (`event_series`, not the API's `event-series`). */
export type JobSummaryRow = Omit<BulkJobSummary, 'kind'> & { kind: string };

/** Durable bulk jobs and their items. */
export interface JobStore {
  /** Stores the job (status `pending`) with every item, unprocessed. */
  insert(row: NewJobRow, items: readonly unknown[]): Promise<JobRecord>;
  findById(id: number): Promise<JobRecord | undefined>;
  findByPublicId(publicId: string): Promise<JobRecord | undefined>;
  /**
   * Jobs neither completed nor failed that `owner` may run at `now`: no process holds them, or its
   * lease has run out, or `owner` holds it. Oldest first.
   */
  claimable(owner: string, now: string): Promise<JobRecord[]>;
  /**
   * Takes or renews the job's lease for `owner` until `until`, when the job is unfinished and no
   * other process holds a lease that runs past `now`; false otherwise. In a transaction it also
   * holds the job against other processes until the transaction ends.
   */
  claim(jobId: number, owner: string, until: string, now: string): Promise<boolean>;
  /** Gives up every lease `owner` holds, so other processes take its jobs at once. */
  release(owner: string): Promise<void>;
  /** The first `limit` items without an outcome, in request order. */
  nextItems(jobId: number, limit: number): Promise<PendingJobItem[]>;
  /**
   * Records a chunk's item outcomes and counts them on the job, once: an item that already has an
   * outcome is left alone, so a replayed chunk can never count twice.
   */
  recordOutcomes(jobId: number, outcomes: ReadonlyArray<{ position: number; outcome: JobItemOutcome }>): Promise<void>;
  /** The job's processed items (those without an outcome are not listed yet). */
  listItems(jobId: number, query: ListQuery): Promise<Page<JobItem>>;
  setStatus(jobId: number, status: JobStatus, finish?: { at: string; errorMessage: string | null }): Promise<void>;
  /**
   * One page of the jobs of `kinds` (stored names), submitted by `createdById` unless it is null,
   * filtered by status and ordered as `query` says.
   */
  list(query: ListQuery, createdById: number | null, kinds: readonly string[]): Promise<Page<JobSummaryRow>>;
  /** How many jobs there are of each kind and status (the metrics endpoint asks at every scrape). */
  countByKindAndStatus(): Promise<Array<{ kind: string; status: JobStatus; count: number }>>;
}
