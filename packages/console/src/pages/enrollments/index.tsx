/** Enrollments: who is enrolled or waiting where, enrolling, check-in and its undo, dropping. */
import { inConsoleWords } from '../../api/console-wording.ts';
import { api, unwrap } from '../../api/client.ts';
import { attendanceMethods, enrollmentStatuses } from '../../api/values.ts';
import { checked, Field, FoldedForm, SelectField, text } from '../../components/form.tsx';
import { Picker } from '../../components/picker.tsx';
import { ListView } from '../../components/list-view.tsx';
import { useVersion } from '../../components/use-load.ts';
import { can, me, role } from '../../session/me.ts';
import { enrollmentBulkActions } from './bulk-actions.tsx';
import {
  enrollmentActions,
  enrollmentAttendance,
  enrollmentCheckedIn,
  enrollmentCreated,
  enrollmentEvent,
  enrollmentStatus,
  enrollmentUser,
} from './columns.tsx';
import { enrollmentsQuery } from './list-query.ts';

const WAITLIST_LABEL = 'Join the wait list if the event is full';

/** Enroll a user (or, for a learner, itself) in an event. */
export function EnrollForm({ eventId, done }: { eventId?: string; done: () => void }) {
  const self = role.value === 'user';
  return (
    <FoldedForm
      summary={self ? 'Enroll myself' : 'Enroll someone'}
      submitLabel="Enroll"
      onSubmit={async (data) => {
        await inConsoleWords(
          unwrap(
            api.POST('/api/v2/enrollments', {
              body: {
                user_id: self ? (me.value?.user.public_id ?? '') : text(data, 'user_id'),
                event_id: eventId ?? text(data, 'event_id'),
                attendance_method: text(data, 'attendance_method') === 'online' ? 'online' : 'in_person',
                accept_waitlist: checked(data, 'accept_waitlist'),
              },
            }),
          ),
          { full: `Every seat for this way of attending is taken. Tick "${WAITLIST_LABEL}" to join the wait list instead.` },
        );
        done();
      }}
    >
      {self ? null : <Picker name="user_id" label="Person" kind="user" required />}
      {eventId ? null : <Picker name="event_id" label="Event" kind="event" required />}
      <SelectField
        name="attendance_method"
        label="Attendance"
        options={attendanceMethods.map((method) => [method, method.replace('_', ' ')] as const)}
      />
      <Field name="accept_waitlist" label={WAITLIST_LABEL} type="checkbox" />
    </FoldedForm>
  );
}

export function EnrollmentsPage() {
  const [version, refresh] = useVersion();
  const manager = role.value !== 'user';
  return (
    <>
      <h1>Enrollments</h1>
      {can('enrollments:write') ? <EnrollForm done={refresh} /> : null}
      <ListView
        path="/api/v2/enrollments"
        empty={
          role.value === 'user'
            ? 'You are not enrolled in any event yet. Enroll yourself with the form above.'
            : 'No enrollments yet. Add people to an event with the form above.'
        }
        load={(q, path) => api.GET(path, { params: { query: { ...q.paging, ...enrollmentsQuery(q) } } })}
        csv={(q, path) => api.GET(path, { params: { query: { ...enrollmentsQuery(q), format: 'csv' } }, parseAs: 'blob' })}
        caption="Enrollments"
        version={version}
        exportName="enrollments"
        filters={[
          { name: 'status', label: 'Status', options: enrollmentStatuses.map((status) => [status, status] as const) },
          {
            name: 'attendance_method',
            label: 'Attendance',
            options: attendanceMethods.map((method) => [method, method.replace('_', ' ')] as const),
          },
          { name: 'event', label: 'Event', pick: 'event' as const },
          ...(manager ? [{ name: 'user', label: 'User', pick: 'user' as const }] : []),
        ]}
        orderings={[
          ['-created', 'Newest first'],
          ['created', 'Oldest first'],
        ]}
        rowKey={(enrollment) => enrollment.public_id}
        selectable={can('enrollments:write') ? enrollmentBulkActions : undefined}
        columns={[
          enrollmentUser,
          enrollmentEvent,
          enrollmentStatus,
          enrollmentAttendance,
          enrollmentCheckedIn,
          { ...enrollmentCreated, header: 'Enrolled' },
          enrollmentActions(refresh),
        ]}
      />
    </>
  );
}
