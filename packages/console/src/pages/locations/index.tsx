/**
 * Locations: where events happen, and in which time zone their sessions' times are read. Create
 * one, rename it, or change its zone while no event is held there (the server refuses it after,
 * and the page says why).
 */
import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api/client.ts';
import type { AddressQuery } from '../../api/list.ts';
import { locationOrderings } from '../../api/values.ts';
import { ErrorBanner } from '../../components/error-banner.tsx';
import { CreateForm, Field, Form, text } from '../../components/form.tsx';
import { ListView } from '../../components/list-view.tsx';
import { useLoad, useVersion } from '../../components/use-load.ts';
import { query, setQuery } from '../../router.ts';
import { can } from '../../session/me.ts';
import { browserTimeZone, pickedTimeZone, TimeZoneField } from './time-zone-field.tsx';

/** The list's search, filter and order, read from the address. */
const locationsQuery = (q: AddressQuery) => ({
  search: q.text('search'),
  timezone: q.text('timezone'),
  ordering: q.oneOf('ordering', locationOrderings),
});

export function LocationsPage() {
  const [version, refresh] = useVersion();
  const editing = query().get('edit');
  const writable = can('events:write');
  return (
    <>
      <h1>Locations</h1>
      <p>An event's session times are read in its location's time zone. Events pick their location from this list.</p>
      {writable ? (
        <CreateForm
          noun="location"
          create={(data) => unwrap(api.POST('/api/v2/locations', { body: { name: text(data, 'name'), timezone: pickedTimeZone(data) } }))}
          onCreated={() => {
            refresh();
            // the new location first, whatever the list showed
            setQuery({ search: undefined, timezone: undefined, ordering: '-id', page: undefined });
          }}
        >
          <Field name="name" label="Name" required maxLength={255} />
          <TimeZoneField value={browserTimeZone()} />
        </CreateForm>
      ) : null}
      {editing && writable ? <EditLocation id={editing} onSaved={refresh} /> : null}
      <ListView
        path="/api/v2/locations"
        empty="No locations yet. Add the first above; events then pick it and take its time zone."
        load={(q, path) => api.GET(path, { params: { query: { ...q.paging, ...locationsQuery(q) } } })}
        caption="Locations"
        search
        version={version}
        filters={[{ name: 'timezone', label: 'In time zone' }]}
        orderings={[
          ['id', 'Oldest first'],
          ['-id', 'Newest first'],
          ['name', 'Name A–Z'],
          ['-name', 'Name Z–A'],
        ]}
        rowKey={(location) => location.id}
        columns={[
          { header: 'Name', sort: 'name', cell: (location) => location.name },
          { header: 'Time zone', cell: (location) => location.timezone },
          { header: 'Local time now', cell: (location) => localTime(location.timezone) },
          { header: 'Id', sort: 'id', class: 'num', cell: (location) => <code>{location.id}</code> },
          {
            header: 'Actions',
            cell: (location) =>
              writable ? (
                <button type="button" aria-label={`Edit ${location.name}`} onClick={() => setQuery({ edit: String(location.id) })}>
                  Edit
                </button>
              ) : null,
          },
        ]}
      />
    </>
  );
}

/** The form for one location, sent with the ETag it was read with, so two editors cannot overwrite each other. */
function EditLocation({ id, onSaved }: { id: string; onSaved: () => void }) {
  const [saved, setSaved] = useState(0);
  const loaded = useLoad(async () => {
    const outcome = await api.GET('/api/v2/locations/{id}', { params: { path: { id } } });
    const location = await unwrap(Promise.resolve(outcome));
    return { location, etag: outcome.response.headers.get('ETag') ?? undefined };
  }, `${id}|${saved}`);
  const current = loaded.data;
  return (
    <section class="detail" aria-labelledby="location-title">
      <h2 id="location-title">{current ? `Edit ${current.location.name}` : 'Edit location'}</h2>
      {loaded.error ? <ErrorBanner error={loaded.error} onRetry={loaded.reload} /> : null}
      {current ? (
        <Form
          resetKey={current.etag}
          submitLabel="Save location"
          onSubmit={async (data) => {
            await unwrap(
              api.PATCH('/api/v2/locations/{id}', {
                params: { path: { id: String(current.location.id) }, ...(current.etag ? { header: { 'If-Match': current.etag } } : {}) },
                body: { name: text(data, 'name'), timezone: pickedTimeZone(data) },
              }),
            );
            setSaved((n) => n + 1);
            onSaved();
          }}
        >
          <Field name="name" label="Name" required maxLength={255} defaultValue={current.location.name} />
          <TimeZoneField value={current.location.timezone} />
          <p class="hint">The time zone can change only while no event or series is held here.</p>
        </Form>
      ) : null}
      <button type="button" onClick={() => setQuery({ edit: undefined })}>
        Close
      </button>
    </section>
  );
}

function localTime(timeZone: string): string {
  try {
    return new Date().toLocaleTimeString(undefined, { timeZone, hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
  } catch {
    return '';
  }
}
