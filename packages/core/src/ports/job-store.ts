import type { JobRecord, JobStatus, StoredActor } from '../jobs/job.ts';

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

export type JobItemOutcome = 'succeeded' | 'failed';

/** Durable bulk jobs and their items. */
export interface JobStore {
  /** Stores the job (status `pending`) with every item, unprocessed. */
  insert(row: NewJobRow, items: readonly unknown[]): Promise<JobRecord>;
  findById(id: number): Promise<JobRecord | undefined>;
  findByPublicId(publicId: string): Promise<JobRecord | undefined>;
  /** Jobs neither completed nor failed, oldest first: what a restart resumes. */
  unfinished(): Promise<JobRecord[]>;
  /** The first `limit` items without an outcome, in request order. */
  nextItems(jobId: number, limit: number): Promise<PendingJobItem[]>;
  /**
   * Records an item's outcome and counts it on the job, once: an item that already has an
   * outcome is left alone, so a replayed chunk can never count twice.
   */
  recordOutcome(jobId: number, position: number, outcome: JobItemOutcome, errorCode: string | null): Promise<void>;
  setStatus(jobId: number, status: JobStatus, finish?: { at: string; errorMessage: string | null }): Promise<void>;
}
