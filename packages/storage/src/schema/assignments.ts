/** Assignments and the counters kept beside them in the same transactions. Conventions: ../schema.ts. */
import type { Generated } from 'kysely';

export interface AssignmentsTable {
  id: Generated<number>;
  public_id: string;
  user_id: number;
  content_id: number;
  /** the enrollment that owns this assignment, set by the enrollments area */
  enrollment_id: number | null;
  state: string;
  progress: number;
  /** restored by undo-complete (assignment-machine.ts) */
  progress_before_completion: number | null;
  score: number | null;
  is_success: number | null;
  due_date: string | null;
  expires_at: string | null;
  started_at: string | null;
  completed_datetime: string | null;
  dropped_at: string | null;
  exempted_at: string | null;
  feedback_rating: number | null;
  feedback_text: string | null;
  drop_reason: string | null;
  attempt: number;
  created: string;
  modified: string;
  deleted_at: string | null;
}

/**
 * Live assignments counted per content item and per combination of the facts the insights
 * group by; kept in the same transaction as every assignment write (assignment-repository.ts).
 * `rating` 0 means none; `success` 0 failed, 1 passed, 2 unknown; `reviewed` 1 when there is text.
 */
export interface AssignmentStatsTable {
  content_id: number;
  state: string;
  rating: number;
  success: number;
  reviewed: number;
  n: number;
}

/** assignment_stats per content type instead of per content item (migration 0013) */
export interface AssignmentTotalsTable {
  content_type: string;
  state: string;
  rating: number;
  success: number;
  reviewed: number;
  n: number;
}

/** outstanding assignments with a due date, per content type, state and day (migration 0013) */
export interface AssignmentDueTotalsTable {
  content_type: string;
  state: string;
  due_date: string;
  n: number;
}

/** live assignments per day of creation (the first ten characters of `created`) and state (migration 0027) */
export interface AssignmentCreatedTotalsTable {
  created_day: string;
  state: string;
  n: number;
}

/** each user's live assignments, kept per write by the assignments area (migration 0024); no row is none */
export interface UserAssignmentCountsTable {
  user_id: number;
  n: number;
}
