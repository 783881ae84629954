/** One series' page (events/series/<id>): where it is held, its events, and editing it. */
import { api, unwrap } from '../../api/client.ts';
import { eventOrderings } from '../../api/values.ts';
import { DetailPage } from '../../components/detail-page.tsx';
import { Field, FoldedForm, integer, text } from '../../components/form.tsx';
import { ListView } from '../../components/list-view.tsx';
import { Picker } from '../../components/picker.tsx';
import { useRecord } from '../../components/use-load.ts';
import { can } from '../../session/me.ts';
import { eventName, eventSeats, eventStarts } from './columns.tsx';

/** A series' fields as the new-series form (events/index.tsx) and this page's edit form send them. */
export const seriesBody = (data: FormData) => ({
  name: text(data, 'name'),
  description: text(data, 'description'),
  location_id: integer(data, 'location_id') ?? null,
  duration: integer(data, 'duration') ?? 0,
});

export function SeriesDetail({ id }: { id: string }) {
  const path = { params: { path: { id } } };
  const { loaded, version, changed } = useRecord(id, () => unwrap(api.GET('/api/v2/event-series/{id}', path)));
  return (
    <DetailPage
      loaded={loaded}
      back={['events', 'Events']}
      id={id}
      summary={(series) => (series.location ? `${series.location.name} (${series.location.timezone})` : 'no location')}
    >
      {(series) => (
        <>
          {series.description ? <p>{series.description}</p> : null}
          {can('events:write') ? (
            <FoldedForm
              summary="Edit series"
              resetKey={series.modified}
              submitLabel="Save series"
              onSubmit={async (data) => {
                await unwrap(api.PATCH('/api/v2/event-series/{id}', { ...path, body: seriesBody(data) }));
                changed();
              }}
            >
              <Field name="name" label="Series name" defaultValue={series.name} required />
              <Field name="description" label="Description" defaultValue={series.description} />
              <Picker
                name="location_id"
                label="Location"
                kind="location"
                initial={
                  series.location
                    ? [{ value: String(series.location.id), label: series.location.name, detail: series.location.timezone }]
                    : []
                }
              />
              <Field name="duration" label="Default length (minutes)" type="number" min={0} defaultValue={String(series.duration)} />
            </FoldedForm>
          ) : null}
          <h2>Events in this series</h2>
          <ListView
            path="/api/v2/events"
            empty="No events in this series yet. Create one on the Events page and choose this series."
            load={(q, path) =>
              api.GET(path, {
                params: { query: { ...q.paging, event_series_id: id, ordering: q.oneOf('ordering', eventOrderings) } },
              })
            }
            scope={id}
            prefix="se_"
            caption="Events in this series"
            version={version}
            orderings={[
              ['starts_at', 'Soonest first'],
              ['-starts_at', 'Latest first'],
            ]}
            rowKey={(event) => event.public_id}
            columns={[eventName, eventStarts, eventSeats]}
          />
        </>
      )}
    </DetailPage>
  );
}
