/**
 * One event's page (events/<id>): timeslots on the location's clock, seats per attendance method
 * as bars, enrolling someone, the enrolled and the wait list with check-in and drop (dropping a
 * seat promotes the first waiting person, so they move from one list to the other), editing and
 * deleting. events/series/<id> is a series' page.
 */
import { api, unwrap } from '../../api/client.ts';
import type { Enrollment } from '../../api/types.ts';
import { enrollmentOrderings } from '../../api/values.ts';
import { ActionButton } from '../../components/action.tsx';
import { DetailPage } from '../../components/detail-page.tsx';
import { ListView } from '../../components/list-view.tsx';
import { ResourceLink } from '../../components/resource-link.tsx';
import { useRecord } from '../../components/use-load.ts';
import { WallClock } from '../../components/wall-clock.tsx';
import { navigate } from '../../router.ts';
import { can } from '../../session/me.ts';
import {
  enrollmentActions,
  enrollmentAttendance,
  enrollmentCheckedIn,
  enrollmentCreated,
  enrollmentPerson,
} from '../enrollments/columns.tsx';
import { enrollmentBulkActions } from '../enrollments/bulk-actions.tsx';
import { EnrollForm } from '../enrollments/index.tsx';
import { EditEvent } from './edit-event.tsx';
import { SeatBars } from './seats.tsx';
import { EditTimeslots } from './timeslots-form.tsx';
import { SeriesDetail } from './series-detail.tsx';

export function EventOrSeriesDetail({ segments }: { segments: string[] }) {
  return segments[0] === 'series' ? <SeriesDetail id={segments[1] ?? ''} /> : <EventDetail id={segments[0] ?? ''} />;
}

function EventDetail({ id }: { id: string }) {
  const { loaded, version, changed } = useRecord(id, () => unwrap(api.GET('/api/v2/events/{id}', { params: { path: { id } } })));
  return (
    <DetailPage
      loaded={loaded}
      back={['events', 'Events']}
      id={id}
      summary={(event) => (
        <>
          {event.event_series ? (
            <>
              series{' '}
              <ResourceLink kind="series" id={event.event_series.public_id}>
                {event.event_series.name}
              </ResourceLink>{' '}
              ·{' '}
            </>
          ) : null}
          {event.location ? `${event.location.name}, times in ${event.location.timezone}` : 'times in UTC'}
        </>
      )}
    >
      {(event) => (
        <>
          <h2>Timeslots</h2>
          <ul>
            {event.timeslots.map((slot) => (
              <li key={slot.id}>
                <WallClock wall={slot.starts_at} utc={slot.starts_at_utc} zone={event.location?.timezone} /> to{' '}
                <WallClock wall={slot.ends_at} utc={slot.ends_at_utc} zone={event.location?.timezone} />
                {slot.rooms_info ? ` · ${slot.rooms_info}` : ''}
              </li>
            ))}
          </ul>
          <h2>Seats</h2>
          <SeatBars event={event} />
          {can('enrollments:write') ? <EnrollForm eventId={id} done={changed} /> : null}
          {can('events:write') ? <EditEvent event={event} done={changed} /> : null}
          {can('events:write') ? <EditTimeslots event={event} done={changed} /> : null}
          {can('events:write') ? (
            <ActionButton
              label="Delete event"
              danger
              confirm="Delete this event?"
              run={() => unwrap(api.DELETE('/api/v2/events/{id}', { params: { path: { id } } }))}
              done={() => navigate('events')}
            />
          ) : null}
          <h2>Enrolled</h2>
          <EnrollmentList eventId={id} status="enrolled" version={version} done={changed} />
          <h2>Wait list</h2>
          <EnrollmentList eventId={id} status="waitlisted" version={version} done={changed} />
        </>
      )}
    </DetailPage>
  );
}

/** One status's enrollments (the wait list is in the order the API promotes from: oldest first). */
function EnrollmentList({
  eventId,
  status,
  version,
  done,
}: {
  eventId: string;
  status: Enrollment['status'];
  version: number;
  done: () => void;
}) {
  return (
    <ListView
      path="/api/v2/enrollments"
      empty={
        status === 'enrolled'
          ? 'Nobody enrolled yet. Enroll people with the form above.'
          : 'Nobody is waiting. People join the wait list when every seat is taken.'
      }
      load={(q, path) =>
        api.GET(path, {
          params: {
            query: { ...q.paging, event: eventId, status: [status], ordering: q.oneOf('ordering', enrollmentOrderings) ?? 'created' },
          },
        })
      }
      scope={`${eventId}|${status}`}
      prefix={status === 'enrolled' ? 'e_' : 'w_'}
      caption={status === 'enrolled' ? 'Enrolled' : 'Wait list'}
      version={version}
      rowKey={(enrollment) => enrollment.public_id}
      selectable={can('enrollments:write') ? { ...enrollmentBulkActions, done } : undefined}
      columns={[enrollmentPerson, enrollmentAttendance, enrollmentCreated, enrollmentCheckedIn, enrollmentActions(done)]}
    />
  );
}
