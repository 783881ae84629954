/**
 * Enrollments (spec "Enrollment", docs/events.md): a user's seat, or place on the wait list, for one
 * attendance method of one event. The decisions themselves are pure (enrollment-rules.ts).
 */
import { z } from 'zod';
import { assignmentStates, type AssignmentState } from '../assignments/assignment-machine.ts';
import { listed, listSpecOf } from '../shared/listed-fields.ts';
import { publicIdField, userRefSchema } from '../shared/schema.ts';
import { attendanceMethods, enrollmentStatuses, type AttendanceMethod, type EnrollmentStatus } from './enrollment-rules.ts';
import { apiSchemaNames } from '../shared/api-schema-names.ts';
import type { StoredRecord } from '../shared/stored-record.ts';

/** The GET shape, and the payload of every `enrollment.*` webhook event. */
export const enrollmentSchema = z
  .object({
    public_id: z.string(),
    user: listed(userRefSchema, { filter: true }),
    event: listed(z.object({ public_id: z.string(), name: z.string() }), { filter: true }),
    status: listed(z.enum(enrollmentStatuses), { filter: 'multiple' }),
    attendance_method: listed(z.enum(attendanceMethods), { filter: true }),
    checkin_datetime: z.string().nullable(),
    /** the state of the assignment the enrollment owns */
    state: listed(z.enum(assignmentStates), { filter: 'multiple' }),
    created: listed(z.string(), { range: 'datetime', sort: true }),
  })
  .register(apiSchemaNames, { id: 'Enrollment' });
export type Enrollment = z.infer<typeof enrollmentSchema>;

/** A stored enrollment: the view plus the internal keys the service works with. */
export interface EnrollmentRecord extends StoredRecord<Enrollment> {
  userId: number;
  eventId: number;
  /** the owned assignment's internal id */
  assignmentId: number;
  method: AttendanceMethod;
  status: EnrollmentStatus;
  checkinDatetime: string | null;
  state: AssignmentState;
}

/** Also the item of `POST /enrollments/bulk/` (docs/assignments.md). */
export const createEnrollmentInput = z
  .strictObject({
    user_id: publicIdField(),
    event_id: publicIdField(),
    attendance_method: z.enum(attendanceMethods),
    accept_waitlist: z.boolean().optional(),
  })
  .register(apiSchemaNames, { id: 'EnrollmentCreate' });
export type CreateEnrollmentInput = z.output<typeof createEnrollmentInput>;

export const enrollmentActions = ['checkin', 'drop', 'undo-checkin'] as const;
export type EnrollmentAction = (typeof enrollmentActions)[number];

/** `is_checked_in` asks whether `checkin_datetime` is set. */
export const enrollmentListSpec = listSpecOf(enrollmentSchema, {
  filters: { is_checked_in: { kind: 'boolean' } },
  defaultOrdering: ['created'],
});
