/** Enrollments: who is enrolled or waiting where, enrolling, check-in and its undo, dropping. */
import { useState } from 'preact/hooks';
import { inConsoleWords } from '../../api/console-wording.ts';
import { api, unwrap } from '../../api/client.ts';
import type { Enrollment } from '../../api/types.ts';
import { ActionButton } from '../../components/action.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { ResourceLink } from '../../components/resource-link.tsx';
import { checked, Field, Form, SelectField, text } from '../../components/form.tsx';
import { Picker } from '../../components/picker.tsx';
import { ListView } from '../../components/list-view.tsx';
import { can, me, role } from '../../session/me.ts';

const WAITLIST_LABEL = 'Join the wait list if the event is full';

/** Enroll a user (or, for a learner, itself) in an event. */
export function EnrollForm({ eventId, done }: { eventId?: string; done: () => void }) {
  const self = role.value === 'user';
  return (
    <details>
      <summary>{self ? 'Enroll myself' : 'Enroll someone'}</summary>
      <Form
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
          options={[
            ['in_person', 'In person'],
            ['online', 'Online'],
          ]}
        />
        <Field name="accept_waitlist" label={WAITLIST_LABEL} type="checkbox" />
      </Form>
    </details>
  );
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

export function EnrollmentsPage() {
  const [version, setVersion] = useState(0);
  const refresh = () => setVersion(version + 1);
  const manager = role.value !== 'user';
  return (
    <>
      <h1>Enrollments</h1>
      {can('enrollments:write') ? <EnrollForm done={refresh} /> : null}
      <ListView
        path="/api/v2/enrollments"
        caption="Enrollments"
        version={version}
        exportName="enrollments"
        filters={[
          {
            name: 'status',
            label: 'Status',
            options: [
              ['enrolled', 'enrolled'],
              ['waitlisted', 'waitlisted'],
              ['dropped', 'dropped'],
            ],
          },
          {
            name: 'attendance_method',
            label: 'Attendance',
            options: [
              ['in_person', 'in person'],
              ['online', 'online'],
            ],
          },
          { name: 'event', label: 'Event', pick: 'event' as const },
          ...(manager ? [{ name: 'user', label: 'User', pick: 'user' as const }] : []),
        ]}
        orderings={[
          ['-created', 'Newest first'],
          ['created', 'Oldest first'],
        ]}
        rowKey={(enrollment) => enrollment.public_id}
        columns={[
          {
            header: 'User',
            cell: (e) => (
              <ResourceLink kind="user" id={e.user.public_id}>
                {e.user.email}
              </ResourceLink>
            ),
          },
          {
            header: 'Event',
            cell: (e) => (
              <ResourceLink kind="event" id={e.event.public_id}>
                {e.event.name}
              </ResourceLink>
            ),
          },
          { header: 'Status', cell: (e) => <span class={e.status === 'enrolled' ? 'badge ok' : 'badge'}>{e.status}</span> },
          { header: 'Attendance', cell: (e) => e.attendance_method.replace('_', ' ') },
          { header: 'Checked in', cell: (e) => <DateCell value={e.checkin_datetime} /> },
          { header: 'Enrolled', cell: (e) => <DateCell value={e.created} /> },
          { header: 'Actions', cell: (e) => <EnrollmentActions enrollment={e} done={refresh} /> },
        ]}
      />
    </>
  );
}
