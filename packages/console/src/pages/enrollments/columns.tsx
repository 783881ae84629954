/** The columns of a table of enrollments, written once for the Enrollments list, an event's page and a user's page. */
import { api, unwrap } from '../../api/client.ts';
import type { Enrollment } from '../../api/types.ts';
import { ActionButton } from '../../components/action.tsx';
import type { Column } from '../../components/data-table.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { ResourceLink } from '../../components/resource-link.tsx';
import { can, role } from '../../session/me.ts';

/** The person by email (the Enrollments list, where the same name may appear twice). */
export const enrollmentUser: Column<Enrollment> = {
  header: 'User',
  cell: (e) => (
    <ResourceLink kind="user" id={e.user.public_id}>
      {e.user.email}
    </ResourceLink>
  ),
};
/** The person by name (an event's page). */
export const enrollmentPerson: Column<Enrollment> = {
  header: 'Person',
  cell: (e) => (
    <ResourceLink kind="user" id={e.user.public_id}>
      {e.user.name}
    </ResourceLink>
  ),
};
export const enrollmentEvent: Column<Enrollment> = {
  header: 'Event',
  cell: (e) => (
    <ResourceLink kind="event" id={e.event.public_id}>
      {e.event.name}
    </ResourceLink>
  ),
};
export const enrollmentStatus: Column<Enrollment> = {
  header: 'Status',
  cell: (e) => <span class={e.status === 'enrolled' ? 'badge ok' : 'badge'}>{e.status}</span>,
};
export const enrollmentAttendance: Column<Enrollment> = { header: 'Attendance', cell: (e) => e.attendance_method.replace('_', ' ') };
export const enrollmentCheckedIn: Column<Enrollment> = { header: 'Checked in', cell: (e) => <DateCell value={e.checkin_datetime} /> };
export const enrollmentCreated: Column<Enrollment, 'created'> = {
  header: 'Since',
  sort: 'created',
  cell: (e) => <DateCell value={e.created} />,
};

export function enrollmentActions(done: () => void): Column<Enrollment> {
  return { header: 'Actions', cell: (e) => <EnrollmentActions enrollment={e} done={done} /> };
}

export function EnrollmentActions({ enrollment, done }: { enrollment: Enrollment; done: () => void }) {
  if (!can('enrollments:write') || enrollment.status === 'dropped') return null;
  const path = { params: { path: { id: enrollment.public_id } } };
  const name = (verb: string) => `${verb} ${enrollment.user.email} at ${enrollment.event.name}`;
  const manager = role.value !== 'user';
  return (
    <div class="actions">
      {manager && enrollment.status === 'enrolled' && !enrollment.checkin_datetime ? (
        <ActionButton
          label="Check in"
          name={name('Check in')}
          run={() => unwrap(api.POST('/api/v2/enrollments/{id}/checkin', path))}
          done={done}
        />
      ) : null}
      {manager && enrollment.checkin_datetime ? (
        <ActionButton
          label="Undo check-in"
          name={name('Undo check-in')}
          run={() => unwrap(api.POST('/api/v2/enrollments/{id}/undo-checkin', path))}
          done={done}
        />
      ) : null}
      <ActionButton
        label="Drop"
        name={name('Drop')}
        danger
        confirm="Drop this enrollment?"
        run={() => unwrap(api.POST('/api/v2/enrollments/{id}/drop', path))}
        done={done}
      />
    </div>
  );
}
