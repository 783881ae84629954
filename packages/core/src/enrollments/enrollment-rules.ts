/**
 * Enrollment decisions (spec "States and transitions › Enrollment", the 409 table, docs/events.md).
 * Pure: the caller loads counts and the user's active enrollment in the same transaction that
 * writes the result, and passes `now` in.
 *
 * Decisions where the specification is silent:
 * - Order of checks on create: an identical active enrollment (same method) is returned first, so
 *   create-or-get stays safe to retry even if the event later stopped offering that method; then
 *   the method must be offered (422); then another active method is 409 `method_conflict`; only
 *   then capacity. An existing enrollment is returned whatever `accept_waitlist` says.
 * - "Full" is `limit > 0 && enrolled >= limit` (>= so a limit lowered below the enrolled count by
 *   PATCH still reads as full; nobody is un-enrolled by it). Waitlisted users do not count as
 *   enrolled. Promotion runs in the transaction that frees a seat, so a free seat with a
 *   non-empty wait list does not persist and a newcomer cannot jump the queue.
 * - undo-checkin of anything but a checked-in enrollment is 409 `not_checked_in`; that covers
 *   dropped and waitlisted ones, which can never be checked in.
 * - Undoing a check-in sends the owned assignment back to `not_started` (docs/events.md), not to
 *   `in_progress` as the assignment's own undo-complete would: an event's assignment has no
 *   partial engagement to return to.
 */
import type { AssignmentEventType, AssignmentState } from '../assignments/assignment-machine.ts';
import { conflict, fieldError } from '../shared/errors.ts';

export const attendanceMethods = ['in_person', 'online'] as const;
export type AttendanceMethod = (typeof attendanceMethods)[number];

export const enrollmentStatuses = ['enrolled', 'waitlisted', 'dropped'] as const;
export type EnrollmentStatus = (typeof enrollmentStatuses)[number];

export type EnrollmentEventType =
  'enrollment.enrolled' | 'enrollment.waitlisted' | 'enrollment.checked_in' | 'enrollment.checkin_undone' | 'enrollment.dropped';

/** What happens to the assignment an enrollment owns; `enrollment.state` mirrors its state. */
export interface OwnedAssignmentEffect {
  state: AssignmentState;
  /** Record it only if the assignment's state actually changes (it may already be there). */
  event: AssignmentEventType;
}

/** The event fields that say which methods are offered. */
export interface OfferedMethods {
  in_person: boolean;
  online: boolean;
}

/** One method's capacity; a limit of 0 means unlimited. */
export interface MethodCapacity {
  limit: number;
  waitListLimit: number;
  /** Active enrollments of this method with status `enrolled` (checked in or not). */
  enrolled: number;
  waitlisted: number;
}

/** The four limit fields of an event, as stored. */
export interface EventLimits {
  enrollment_limit: number;
  wait_list_limit: number;
  online_enrollment_limit: number;
  online_wait_list_limit: number;
}

/** Maps `is_local`/`is_online` to the methods they offer. */
export const offeredMethods = (event: { is_local: boolean; is_online: boolean }): OfferedMethods => ({
  in_person: event.is_local,
  online: event.is_online,
});

/** The limits that govern one method: the unprefixed pair is in-person, the `online_` pair online. */
export function limitsFor(event: EventLimits, method: AttendanceMethod): { limit: number; waitListLimit: number } {
  return method === 'in_person'
    ? { limit: event.enrollment_limit, waitListLimit: event.wait_list_limit }
    : { limit: event.online_enrollment_limit, waitListLimit: event.online_wait_list_limit };
}

const hasRoom = (count: number, limit: number): boolean => limit === 0 || count < limit;

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer (got ${value}).`);
}

export interface EnrollmentRequest {
  method: AttendanceMethod;
  offered: OfferedMethods;
  capacity: MethodCapacity;
  /** The user's enrollment in this event that is not dropped, if any. */
  existingActive?: { method: AttendanceMethod; status: EnrollmentStatus } | null;
  acceptWaitlist?: boolean;
}

export type EnrollmentDecision =
  | { outcome: 'existing' }
  | {
      outcome: 'enrolled' | 'waitlisted';
      events: EnrollmentEventType[];
      /** The owned assignment starts at not_started; `assignment.created` when it is new. */
      assignment: { state: 'not_started'; eventIfCreated: 'assignment.created' };
    };

const NEW_ASSIGNMENT = { state: 'not_started', eventIfCreated: 'assignment.created' } as const;

const METHOD_LABEL: Record<AttendanceMethod, string> = { in_person: 'in-person', online: 'online' };

/** POST /enrollments/ (201 for enrolled/waitlisted, 200 for existing) or the 422/409 it fails with. */
export function decideEnrollment(request: EnrollmentRequest): EnrollmentDecision {
  const { method, offered, capacity, acceptWaitlist = false } = request;
  for (const key of ['limit', 'waitListLimit', 'enrolled', 'waitlisted'] as const) assertCount(key, capacity[key]);
  // a dropped enrollment is history, not an active one: its user may enroll again
  const existing = request.existingActive && request.existingActive.status !== 'dropped' ? request.existingActive : null;

  if (existing && existing.method === method) return { outcome: 'existing' };
  if (!offered[method]) {
    throw fieldError(
      'attendance_method',
      `This event does not offer ${METHOD_LABEL[method]} attendance (${method === 'in_person' ? 'is_local' : 'is_online'} is false).`,
    );
  }
  if (existing) {
    throw conflict(
      'method_conflict',
      `The user is already ${existing.status} in this event for ${METHOD_LABEL[existing.method]} attendance; drop that enrollment before enrolling ${METHOD_LABEL[method]}.`,
    );
  }
  if (hasRoom(capacity.enrolled, capacity.limit)) {
    return { outcome: 'enrolled', events: ['enrollment.enrolled'], assignment: NEW_ASSIGNMENT };
  }
  if (!acceptWaitlist) {
    throw conflict(
      'full',
      `All ${capacity.limit} ${METHOD_LABEL[method]} seats are taken; send accept_waitlist: true to join the wait list.`,
    );
  }
  if (!hasRoom(capacity.waitlisted, capacity.waitListLimit)) {
    throw conflict(
      'waitlist_full',
      `All ${capacity.limit} ${METHOD_LABEL[method]} seats are taken and the wait list is full (${capacity.waitListLimit}).`,
    );
  }
  return { outcome: 'waitlisted', events: ['enrollment.waitlisted'], assignment: NEW_ASSIGNMENT };
}

/** The columns of an enrollment the actions change. */
export interface EnrollmentLifecycle {
  status: EnrollmentStatus;
  checkin_datetime: string | null;
}

export interface EnrollmentChange {
  /** False for the idempotent no-ops (check-in when checked in, drop when dropped): 200, nothing recorded. */
  changed: boolean;
  next: EnrollmentLifecycle;
  events: EnrollmentEventType[];
  assignment: OwnedAssignmentEffect | null;
  /** A seat of this method became free: promote from its wait list in the same transaction. */
  freesSeat: boolean;
}

const unchanged = (current: EnrollmentLifecycle): EnrollmentChange => ({
  changed: false,
  next: { ...current },
  events: [],
  assignment: null,
  freesSeat: false,
});

/** POST /enrollments/<id>/checkin/: idempotent; 409 `dropped` or `waitlisted`. */
export function checkin(current: EnrollmentLifecycle, now: string): EnrollmentChange {
  if (current.status === 'dropped') throw conflict('dropped', 'A dropped enrollment cannot be checked in.');
  if (current.status === 'waitlisted') {
    throw conflict('waitlisted', 'A waitlisted enrollment cannot be checked in until it is promoted to enrolled.');
  }
  if (current.checkin_datetime !== null) return unchanged(current);
  return {
    changed: true,
    next: { status: 'enrolled', checkin_datetime: now },
    events: ['enrollment.checked_in'],
    assignment: { state: 'completed', event: 'assignment.completed' },
    freesSeat: false,
  };
}

/** POST /enrollments/<id>/drop/: idempotent on dropped; 409 `checked_in`. */
export function drop(current: EnrollmentLifecycle): EnrollmentChange {
  if (current.status === 'dropped') return unchanged(current);
  if (current.checkin_datetime !== null) {
    throw conflict('checked_in', 'A checked-in enrollment cannot be dropped; undo the check-in first.');
  }
  return {
    changed: true,
    next: { status: 'dropped', checkin_datetime: null },
    events: ['enrollment.dropped'],
    assignment: { state: 'dropped', event: 'assignment.dropped' },
    // leaving the wait list frees a wait-list place, not a seat
    freesSeat: current.status === 'enrolled',
  };
}

/** POST /enrollments/<id>/undo-checkin/: 409 `not_checked_in`. The seat stays taken. */
export function undoCheckin(current: EnrollmentLifecycle): EnrollmentChange {
  if (current.status !== 'enrolled' || current.checkin_datetime === null) {
    throw conflict(
      'not_checked_in',
      `Only a checked-in enrollment can have its check-in undone; this one is ${current.status} and not checked in.`,
    );
  }
  return {
    changed: true,
    next: { status: 'enrolled', checkin_datetime: null },
    events: ['enrollment.checkin_undone'],
    assignment: { state: 'not_started', event: 'assignment.completion_undone' },
    freesSeat: false,
  };
}

/** Waitlisted → enrolled when a seat frees; anything else is left alone (changed: false). */
export function promote(current: EnrollmentLifecycle): EnrollmentChange {
  if (current.status !== 'waitlisted') return unchanged(current);
  return {
    changed: true,
    next: { status: 'enrolled', checkin_datetime: null },
    events: ['enrollment.enrolled'],
    // the owned assignment was created not_started with the waitlisted enrollment and stays so
    assignment: null,
    freesSeat: false,
  };
}

/**
 * The waitlisted enrollments (of one method) to promote now, oldest first: as many as there are
 * free seats, or all of them when the limit is 0 (unlimited). Call after every drop that frees a
 * seat and after any PATCH that raises a limit.
 */
export function seatsToPromote<T>(input: { limit: number; enrolled: number; waitlistedOldestFirst: readonly T[] }): T[] {
  assertCount('limit', input.limit);
  assertCount('enrolled', input.enrolled);
  if (input.limit === 0) return [...input.waitlistedOldestFirst];
  const free = Math.max(0, input.limit - input.enrolled);
  return input.waitlistedOldestFirst.slice(0, free);
}
