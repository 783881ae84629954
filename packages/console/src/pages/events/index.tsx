/**
 * Events: series and events, timeslots shown on their location's clock, seats and wait lists,
 * enrolling someone, and each event's enrollments with check-in and its undo.
 */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import { ActionButton } from '../../components/action.tsx';
import { DateCell } from '../../components/date-cell.tsx';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { checked, Field, Form, integer, list, nullableText, text } from '../../components/form.tsx';
import { Picker } from '../../components/picker.tsx';
import { ListView } from '../../components/list-view.tsx';
import { useLoad } from '../../components/use-load.ts';
import { WallClock } from '../../components/wall-clock.tsx';
import { query, setQuery } from '../../router.ts';
import { can } from '../../session/me.ts';
import { EnrollForm, EnrollmentActions } from '../enrollments/index.tsx';

const seats = (limit: number, taken: number) => (limit === 0 ? `${taken} (no limit)` : `${taken} / ${limit}`);

export function EventsPage() {
  const [version, setVersion] = useState(0);
  const open = query().get('event');
  const refresh = () => setVersion(version + 1);
  const writable = can('events:write');
  return (
    <>
      <h1>Events</h1>
      {writable ? (
        <div class="grid">
          <details>
            <summary>New event</summary>
            <Form
              submitLabel="Create event"
              resetOnSuccess
              onSubmit={async (data) => {
                const startsAt = text(data, 'starts_at');
                const made = await unwrap(
                  api.POST('/api/v2/events', {
                    body: {
                      name: text(data, 'name'),
                      event_series_id: nullableText(data, 'event_series_id'),
                      // the wall clock at the location, written with Z as the API reads it
                      timeslots: startsAt
                        ? [{ starts_at: `${startsAt}:00Z`, duration: nullableText(data, 'duration'), rooms_info: text(data, 'rooms_info') }]
                        : [],
                      location_id: integer(data, 'location_id') ?? null,
                      enrollment_limit: integer(data, 'enrollment_limit') ?? 0,
                      wait_list_limit: integer(data, 'wait_list_limit') ?? 0,
                      is_local: checked(data, 'is_local'),
                      is_online: checked(data, 'is_online'),
                      tags: list(data, 'tags'),
                    },
                  }),
                );
                refresh();
                setQuery({ event: made.public_id });
              }}
            >
              <Field name="name" label="Event name" required />
              <Picker name="event_series_id" label="Series" kind="series" hint="Optional: the series it belongs to." />
              <Field
                name="starts_at"
                label="Starts at"
                type="datetime-local"
                errorKey="timeslots"
                hint="On the clock of the event's location."
              />
              <Field name="duration" label="Duration" placeholder="PT1H" hint="ISO-8601, for example PT1H30M." />
              <Field name="rooms_info" label="Room" />
              <Picker name="location_id" label="Location" kind="location" hint="Optional: where it takes place, and on whose clock." />
              <Field name="enrollment_limit" label="In-person seats" type="number" min={0} hint="0 for no limit." />
              <Field name="wait_list_limit" label="Wait list places" type="number" min={0} />
              <Field name="is_local" label="In person" type="checkbox" defaultChecked />
              <Field name="is_online" label="Online" type="checkbox" />
              <Field name="tags" label="Tags" />
            </Form>
          </details>
          <details>
            <summary>New series</summary>
            <Form
              submitLabel="Create series"
              resetOnSuccess
              onSubmit={async (data) => {
                await unwrap(
                  api.POST('/api/v2/event-series', {
                    body: {
                      name: text(data, 'name'),
                      description: text(data, 'description'),
                      location_id: integer(data, 'location_id') ?? null,
                      duration: integer(data, 'duration') ?? 0,
                    },
                  }),
                );
                refresh();
              }}
            >
              <Field name="name" label="Series name" required />
              <Field name="description" label="Description" />
              <Picker name="location_id" label="Location" kind="location" hint="Optional: where it takes place, and on whose clock." />
              <Field name="duration" label="Default length (minutes)" type="number" min={0} />
            </Form>
          </details>
        </div>
      ) : null}
      {open ? <EventDetail id={open} onChanged={refresh} /> : null}
      <h2>Events</h2>
      <ListView
        path="/api/v2/events"
        caption="Events"
        version={version}
        exportName="events"
        search
        filters={[
          { name: 'event_series_id', label: 'Series', pick: 'series' },
          {
            name: 'is_archived',
            label: 'Archived',
            options: [
              ['false', 'Not archived'],
              ['true', 'Archived'],
            ],
          },
          { name: 'starts_at_utc__gte', label: 'Starting from', type: 'date' },
          { name: 'starts_at_utc__lte', label: 'Starting until', type: 'date' },
        ]}
        orderings={[
          ['starts_at', 'Soonest first'],
          ['-starts_at', 'Latest first'],
          ['name', 'Name'],
        ]}
        rowKey={(event) => event.public_id}
        columns={[
          { header: 'Name', cell: (event) => event.name },
          {
            header: 'Starts',
            cell: (event) => <WallClock wall={event.starts_at} utc={event.starts_at_utc} zone={event.location?.timezone} />,
          },
          { header: 'Series', cell: (event) => event.event_series?.name ?? '' },
          { header: 'Seats', cell: (event) => seats(event.enrollment_limit, event.enrollment_counts.in_person.enrolled) },
          { header: 'Wait list', cell: (event) => seats(event.wait_list_limit, event.enrollment_counts.in_person.waitlisted) },
          {
            header: 'Actions',
            cell: (event) => (
              <button type="button" aria-label={`Open ${event.name}`} onClick={() => setQuery({ event: event.public_id })}>
                Open
              </button>
            ),
          },
        ]}
      />
      <h2>Series</h2>
      <ListView
        path="/api/v2/event-series"
        prefix="s_"
        caption="Event series"
        version={version}
        rowKey={(series) => series.public_id}
        columns={[
          { header: 'Name', cell: (series) => series.name },
          { header: 'Id', cell: (series) => <code>{series.public_id}</code> },
          { header: 'Location', cell: (series) => (series.location ? `${series.location.name} (${series.location.timezone})` : '') },
          { header: 'Created', cell: (series) => <DateCell value={series.created} /> },
        ]}
      />
    </>
  );
}

function EventDetail({ id, onChanged }: { id: string; onChanged: () => void }) {
  const [version, setVersion] = useState(0);
  const loaded = useLoad(() => unwrap(api.GET('/api/v2/events/{id}', { params: { path: { id } } })), `${id}|${version}`);
  const event = loaded.data;
  const changed = () => {
    setVersion(version + 1);
    onChanged();
  };
  return (
    <section class="detail" aria-labelledby="event-title">
      <h2 id="event-title">{event?.name ?? 'Event'}</h2>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      {event ? (
        <>
          <p class="muted">
            id <code>{event.public_id}</code>
            {event.location ? ` · ${event.location.name}, times in ${event.location.timezone}` : ' · times in UTC'}
          </p>
          <h3>Timeslots</h3>
          <ul>
            {event.timeslots.map((slot) => (
              <li key={slot.id}>
                <WallClock wall={slot.starts_at} utc={slot.starts_at_utc} zone={event.location?.timezone} /> to{' '}
                <WallClock wall={slot.ends_at} utc={slot.ends_at_utc} zone={event.location?.timezone} />
                {slot.rooms_info ? ` · ${slot.rooms_info}` : ''}
              </li>
            ))}
          </ul>
          <p>
            In person: {seats(event.enrollment_limit, event.enrollment_counts.in_person.enrolled)} seats taken,{' '}
            {seats(event.wait_list_limit, event.enrollment_counts.in_person.waitlisted)} waiting. Online:{' '}
            {seats(event.online_enrollment_limit, event.enrollment_counts.online.enrolled)} taken,{' '}
            {seats(event.online_wait_list_limit, event.enrollment_counts.online.waitlisted)} waiting.
          </p>
          {can('enrollments:write') ? <EnrollForm eventId={id} done={changed} /> : null}
          {can('events:write') ? (
            <details>
              <summary>Edit event</summary>
              <Form
                resetKey={event.modified}
                submitLabel="Save"
                onSubmit={async (data) => {
                  await unwrap(
                    api.PATCH('/api/v2/events/{id}', {
                      params: { path: { id } },
                      body: {
                        name: text(data, 'name'),
                        enrollment_limit: integer(data, 'enrollment_limit') ?? 0,
                        wait_list_limit: integer(data, 'wait_list_limit') ?? 0,
                        online_enrollment_limit: integer(data, 'online_enrollment_limit') ?? 0,
                        online_wait_list_limit: integer(data, 'online_wait_list_limit') ?? 0,
                        is_local: checked(data, 'is_local'),
                        is_online: checked(data, 'is_online'),
                        is_hidden: checked(data, 'is_hidden'),
                        event_series_id: nullableText(data, 'event_series_id'),
                        location_id: integer(data, 'location_id') ?? null,
                      },
                    }),
                  );
                  changed();
                }}
              >
                <Field name="name" label="Event name" defaultValue={event.name} />
                <Picker
                  name="event_series_id"
                  label="Series"
                  kind="series"
                  initial={event.event_series ? [{ value: event.event_series.public_id, label: event.event_series.name }] : []}
                />
                <Picker
                  name="location_id"
                  label="Location"
                  kind="location"
                  initial={
                    event.location
                      ? [{ value: String(event.location.id), label: event.location.name, detail: event.location.timezone }]
                      : []
                  }
                />
                <Field
                  name="enrollment_limit"
                  label="In-person seats"
                  type="number"
                  min={0}
                  defaultValue={String(event.enrollment_limit)}
                  hint="0 for no limit."
                />
                <Field name="wait_list_limit" label="Wait list places" type="number" min={0} defaultValue={String(event.wait_list_limit)} />
                <Field
                  name="online_enrollment_limit"
                  label="Online seats"
                  type="number"
                  min={0}
                  defaultValue={String(event.online_enrollment_limit)}
                />
                <Field
                  name="online_wait_list_limit"
                  label="Online wait list places"
                  type="number"
                  min={0}
                  defaultValue={String(event.online_wait_list_limit)}
                />
                <Field name="is_local" label="In person" type="checkbox" defaultChecked={event.is_local} />
                <Field name="is_online" label="Online" type="checkbox" defaultChecked={event.is_online} />
                <Field name="is_hidden" label="Hidden" type="checkbox" defaultChecked={event.is_hidden} />
              </Form>
            </details>
          ) : null}
          {can('events:write') ? (
            <ActionButton
              label="Delete event"
              danger
              confirm="Delete this event?"
              run={() => unwrap(api.DELETE('/api/v2/events/{id}', { params: { path: { id } } }))}
              done={() => {
                setQuery({ event: undefined });
                onChanged();
              }}
            />
          ) : null}
          <h3>Enrollments</h3>
          <ListView
            path="/api/v2/enrollments"
            prefix="e_"
            fixed={{ event: id }}
            caption="Event enrollments"
            version={version}
            rowKey={(enrollment) => enrollment.public_id}
            columns={[
              { header: 'User', cell: (e) => e.user.email },
              { header: 'Status', cell: (e) => e.status },
              { header: 'Attendance', cell: (e) => e.attendance_method.replace('_', ' ') },
              { header: 'Checked in', cell: (e) => <DateCell value={e.checkin_datetime} /> },
              { header: 'Actions', cell: (e) => <EnrollmentActions enrollment={e} done={changed} /> },
            ]}
          />
        </>
      ) : null}
      <button type="button" onClick={() => setQuery({ event: undefined })}>
        Close
      </button>
    </section>
  );
}
