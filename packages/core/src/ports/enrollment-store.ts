import type { AttendanceMethod, EnrollmentStatus } from '../enrollments/enrollment-rules.ts';
import type { EnrollmentRecord } from '../enrollments/enrollment.ts';
import type { ListQuery, Page } from '../shared/list-query.ts';
import type { ListNarrowing } from './list-narrowing.ts';

export interface NewEnrollmentRow {
  publicId: string;
  userId: number;
  eventId: number;
  method: AttendanceMethod;
  status: EnrollmentStatus;
  created: string;
}

export interface EnrollmentChanges {
  status?: EnrollmentStatus;
  checkinDatetime?: string | null;
  assignmentId?: number;
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
  insert(row: NewEnrollmentRow): Promise<number>;
  /** Many new enrollments in a few statements (an import's batch); their ids in the order given. */
  insertMany(rows: readonly NewEnrollmentRow[]): Promise<number[]>;
  /** Sets the owned assignment of each of many new enrollments, in one statement. */
  linkAssignments(links: ReadonlyArray<{ id: number; assignmentId: number }>, modified: string): Promise<void>;
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
