import type { AttendanceMethod, EnrollmentStatus } from '../enrollments/enrollment-rules.ts';
import type { EnrollmentRecord } from '../enrollments/enrollment.ts';
import type { ListQuery, Page } from '../shared/list-query.ts';
import type { ListNarrowing } from './list-narrowing.ts';

export interface NewEnrollmentRow {
  /** taken with `reserveIds`, so that the owned assignment can be written first, pointing at it */
  id: number;
  publicId: string;
  userId: number;
  eventId: number;
  method: AttendanceMethod;
  status: EnrollmentStatus;
  created: string;
  /** the owned assignment, written before the enrollment */
  assignmentId: number;
}

export interface EnrollmentChanges {
  status?: EnrollmentStatus;
  checkinDatetime?: string | null;
  modified: string;
}

export interface EnrollmentListOptions extends ListNarrowing {
  /** role `user` sees only its own enrollments: its internal id, or null for everyone's */
  ownerId: number | null;
}

/**
 * Enrollments, those of deleted events included (history, like assignments of deleted content).
 * Capacity is decided from `countActive` inside the transaction that writes the result.
 */
export interface EnrollmentStore {
  /** The ids the next `count` new enrollments of this transaction are written with. */
  reserveIds(count: number): Promise<number[]>;
  /** New enrollments with reserved ids, in a few statements (one, or an import's batch). */
  insertMany(rows: readonly NewEnrollmentRow[]): Promise<void>;
  /** In the order of `ids`. */
  findByIds(ids: readonly number[]): Promise<EnrollmentRecord[]>;
  /** Which of these event and user pairs have an enrollment that is not dropped, by `eventId:userId`. */
  activePairs(pairs: ReadonlyArray<{ eventId: number; userId: number }>): Promise<Set<string>>;
  update(id: number, changes: EnrollmentChanges): Promise<void>;
  findById(id: number): Promise<EnrollmentRecord | undefined>;
  findByPublicId(publicId: string): Promise<EnrollmentRecord | undefined>;
  /** The user's enrollment in the event that is not dropped, if any (at most one). */
  findActive(eventId: number, userId: number): Promise<EnrollmentRecord | undefined>;
  /** Enrolled (checked in or not) and waitlisted enrollments of one method of one event. */
  countActive(eventId: number, method: AttendanceMethod): Promise<{ enrolled: number; waitlisted: number }>;
  /** The first `limit` waitlisted enrollments of one method, oldest first. */
  oldestWaitlisted(eventId: number, method: AttendanceMethod, limit: number): Promise<EnrollmentRecord[]>;
  list(query: ListQuery, options: EnrollmentListOptions): Promise<Page<EnrollmentRecord>>;
}
