import type { AssignmentState } from '../assignments/assignment-machine.ts';

/**
 * The insight filters of docs/assignments.md "Insights", with references as public ids (a well-formed id that
 * names nothing matches nothing) and the `created` range as inclusive ISO bounds.
 */
export interface InsightFilter {
  contentItem?: string;
  user?: string;
  group?: string;
  createdGte?: string;
  createdLte?: string;
}

/** Each method is one aggregate query; none loads assignment rows. Dropped assignments count only in `byState`. */
export interface InsightStore {
  countsByState(filter: InsightFilter): Promise<Partial<Record<AssignmentState, number>>>;
  overdueByState(filter: InsightFilter, today: string): Promise<Partial<Record<'not_started' | 'in_progress', number>>>;
  feedbackCounts(filter: InsightFilter): Promise<{ ratings_count: number; reviews_count: number }>;
  ratingCounts(filter: InsightFilter): Promise<Array<{ rating: number; count: number }>>;
  passFailCounts(filter: InsightFilter): Promise<{ passed: number; failed: number }>;
  /** completed assignments per UTC day (`YYYY-MM-DD`) of their completion, from `since` (ISO, inclusive) on */
  completionsByDay(filter: InsightFilter, since: string): Promise<Array<{ day: string; count: number }>>;
}
