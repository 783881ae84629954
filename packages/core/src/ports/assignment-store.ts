import type { AssignmentState } from '../assignments/assignment-machine.ts';
import type { AssignmentRecord } from '../assignments/assignment.ts';
import type { TrackGraph } from '../assignments/track-expansion.ts';
import type { TrackItemStatus } from '../assignments/track-progress.ts';
import type { ListQuery, Page } from '../shared/list-query.ts';
import type { ContentViewer } from './content-store.ts';
import type { ListNarrowing } from './list-narrowing.ts';

export interface NewAssignmentRow {
  publicId: string;
  userId: number;
  contentId: number;
  dueDate: string | null;
  expiresAt: string | null;
  /** set by the enrollments area for the assignment an enrollment owns */
  enrollmentId: number | null;
  created: string;
}

/** Columns a write may change; `modified` is always stamped. */
export interface AssignmentChanges {
  state?: AssignmentState;
  progress?: number;
  progressBeforeCompletion?: number | null;
  score?: number | null;
  isSuccess?: boolean | null;
  dueDate?: string | null;
  expiresAt?: string | null;
  startedAt?: string | null;
  completedDatetime?: string | null;
  droppedAt?: string | null;
  exemptedAt?: string | null;
  feedbackRating?: number | null;
  feedbackText?: string | null;
  dropReason?: string | null;
  attempt?: number;
  /** the enrollment that owns the assignment (the enrollments area hands it over) */
  enrollmentId?: number | null;
  modified: string;
}

export interface AssignmentListOptions extends ListNarrowing {
  /** role `user` sees only its own assignments: its internal id, or null for everyone's */
  ownerId: number | null;
  /** today (UTC `YYYY-MM-DD`), against which `is_overdue` is evaluated */
  today: string;
}

/**
 * Assignments. Every write keeps the derived counts exact in the same transaction: the content
 * item's `total_assignments`, `completed_assignments_count` and rating sum/count, and the
 * per-content statistics the insights read.
 */
export interface AssignmentStore {
  insert(row: NewAssignmentRow): Promise<number>;
  /**
   * Many new assignments in a few statements (an import's batch), answered in the order given;
   * a row whose pair already has a live assignment is not written, and answered undefined.
   */
  insertMissing(rows: readonly NewAssignmentRow[]): Promise<Array<AssignmentRecord | undefined>>;
  update(id: number, changes: AssignmentChanges): Promise<void>;
  softDelete(id: number, at: string): Promise<void>;
  findById(id: number): Promise<AssignmentRecord | undefined>;
  findByPublicId(publicId: string): Promise<AssignmentRecord | undefined>;
  /** The live (not deleted) assignment of a user+content pair. */
  findLive(userId: number, contentId: number): Promise<AssignmentRecord | undefined>;
  /** The public ids of the live assignments among these pairs, by `userId:contentId`. */
  livePublicIds(pairs: ReadonlyArray<{ userId: number; contentId: number }>): Promise<Map<string, string>>;
  /** Those of the content items some live track or scheduled track holds. */
  heldByTracks(contentIds: readonly number[]): Promise<Set<number>>;
  list(query: ListQuery, options: AssignmentListOptions): Promise<Page<AssignmentRecord>>;
  /** The containment graph below a content item (tracks and scheduled tracks only), seen by `viewer`. */
  trackGraph(rootId: number, viewer: ContentViewer): Promise<TrackGraph>;
  /** The user's live assignments of the tracks and scheduled tracks (not deleted) that directly hold `contentId`. */
  trackAssignmentsHolding(userId: number, contentId: number): Promise<AssignmentRecord[]>;
  /** Each item directly in the track (not deleted, once however often it is held), with the user's live assignment's state. */
  trackItemStatuses(trackId: number, userId: number): Promise<TrackItemStatus[]>;
}
