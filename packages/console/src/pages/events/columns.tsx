/** The columns of a table of events, written once for the Events list and a series' page. */
import type { Event } from '../../api/types.ts';
import type { Column } from '../../components/data-table.tsx';
import { ResourceLink } from '../../components/resource-link.tsx';
import { WallClock } from '../../components/wall-clock.tsx';
import { seats } from './seats.tsx';

export const eventName: Column<Event, 'name'> = {
  header: 'Name',
  sort: 'name',
  cell: (event) => (
    <ResourceLink kind="event" id={event.public_id}>
      {event.name}
    </ResourceLink>
  ),
};
export const eventStarts: Column<Event, 'starts_at'> = {
  header: 'Starts',
  sort: 'starts_at',
  cell: (event) => <WallClock wall={event.starts_at} utc={event.starts_at_utc} zone={event.location?.timezone} />,
};
export const eventSeries: Column<Event> = {
  header: 'Series',
  cell: (event) =>
    event.event_series ? (
      <ResourceLink kind="series" id={event.event_series.public_id}>
        {event.event_series.name}
      </ResourceLink>
    ) : null,
};
export const eventSeats: Column<Event> = {
  header: 'Seats',
  cell: (event) => seats(event.enrollment_limit, event.enrollment_counts.in_person.enrolled),
};
export const eventWaitList: Column<Event> = {
  header: 'Wait list',
  cell: (event) => seats(event.wait_list_limit, event.enrollment_counts.in_person.waitlisted),
};
