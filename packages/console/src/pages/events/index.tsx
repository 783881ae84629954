/**
 * Events: the lists of events and series, creating either; an event's own page (events/<id>) and
 * a series' (events/series/<id>) are in detail.tsx.
 */
import { api, unwrap } from '../../api/client.ts';
import type { AddressQuery } from '../../api/list.ts';
import { eventOrderings, seriesOrderings } from '../../api/values.ts';
import { DateCell } from '../../components/date-cell.tsx';
import { listOrDetail } from '../../components/detail-route.tsx';
import { checked, CreateForm, Field, integer, list, nullableText, text } from '../../components/form.tsx';
import { Picker } from '../../components/picker.tsx';
import { ListView } from '../../components/list-view.tsx';
import { detailAddress, ResourceLink } from '../../components/resource-link.tsx';
import { useVersion } from '../../components/use-load.ts';
import { navigate } from '../../router.ts';
import { can } from '../../session/me.ts';
import { EventOrSeriesDetail } from './detail.tsx';
import { seriesBody } from './series-detail.tsx';
import { eventName, eventSeats, eventSeries, eventStarts, eventWaitList } from './columns.tsx';

export const EventsPage = listOrDetail(EventList, EventOrSeriesDetail);

/** The events list's search, filters and order, read from the address. */
const eventsQuery = (q: AddressQuery) => ({
  search: q.text('search'),
  event_series_id: q.text('event_series_id'),
  is_archived: q.flag('is_archived'),
  starts_at_utc__gte: q.text('starts_at_utc__gte'),
  starts_at_utc__lte: q.text('starts_at_utc__lte'),
  ordering: q.oneOf('ordering', eventOrderings),
});

function EventList() {
  const [version, refresh] = useVersion();
  const writable = can('events:write');
  return (
    <>
      <h1>Events</h1>
      {writable ? (
        <div class="grid">
          <CreateForm
            noun="event"
            create={(data) => {
              const startsAt = text(data, 'starts_at');
              return unwrap(
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
            }}
            onCreated={(made) => {
              refresh();
              navigate(detailAddress('event', made.public_id));
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
          </CreateForm>
          <CreateForm
            noun="series"
            create={(data) => unwrap(api.POST('/api/v2/event-series', { body: seriesBody(data) }))}
            onCreated={refresh}
          >
            <Field name="name" label="Series name" required />
            <Field name="description" label="Description" />
            <Picker name="location_id" label="Location" kind="location" hint="Optional: where it takes place, and on whose clock." />
            <Field name="duration" label="Default length (minutes)" type="number" min={0} />
          </CreateForm>
        </div>
      ) : null}
      <h2>Events</h2>
      <ListView
        path="/api/v2/events"
        empty="No events yet. Add the first above (a location, made first on the Locations page, gives it a time zone)."
        load={(q, path) => api.GET(path, { params: { query: { ...q.paging, ...eventsQuery(q) } } })}
        csv={(q, path) => api.GET(path, { params: { query: { ...eventsQuery(q), format: 'csv' } }, parseAs: 'blob' })}
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
        columns={[eventName, eventStarts, eventSeries, eventSeats, eventWaitList]}
      />
      <h2>Series</h2>
      <ListView
        path="/api/v2/event-series"
        empty="No series yet. A series groups events that share a name, location and description: add the first above."
        load={(q, path) => api.GET(path, { params: { query: { ...q.paging, ordering: q.oneOf('ordering', seriesOrderings) } } })}
        prefix="s_"
        caption="Event series"
        version={version}
        rowKey={(series) => series.public_id}
        columns={[
          {
            header: 'Name',
            sort: 'name',
            cell: (series) => (
              <ResourceLink kind="series" id={series.public_id}>
                {series.name}
              </ResourceLink>
            ),
          },
          { header: 'Location', cell: (series) => (series.location ? `${series.location.name} (${series.location.timezone})` : '') },
          { header: 'Created', sort: 'created', cell: (series) => <DateCell value={series.created} /> },
        ]}
      />
    </>
  );
}
