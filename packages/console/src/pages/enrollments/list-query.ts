/** The Enrollments list's query, which a person's page reads for their enrollments too. */
import type { AddressQuery } from '../../api/list.ts';
import { attendanceMethods, enrollmentOrderings, enrollmentStatuses } from '../../api/values.ts';

/** The list's filters and order, read from the address. */
export const enrollmentsQuery = (q: AddressQuery) => ({
  status: q.someOf('status', enrollmentStatuses),
  attendance_method: q.oneOf('attendance_method', attendanceMethods),
  event: q.text('event'),
  user: q.text('user'),
  ordering: q.oneOf('ordering', enrollmentOrderings),
});
