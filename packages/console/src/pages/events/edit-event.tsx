/** The event's edit form on its page: name, series, location, seats and wait-list places, how it is held. */
import { api, unwrap } from '../../api/client.ts';
import type { Event } from '../../api/types.ts';
import { checked, Field, FoldedForm, integer, nullableText, text } from '../../components/form.tsx';
import { Picker } from '../../components/picker.tsx';

/** The seats and wait-list places per attendance method: each a count, 0 for no limit. */
const limits: readonly { name: keyof Event & `${string}_limit`; label: string; hint?: string }[] = [
  { name: 'enrollment_limit', label: 'In-person seats', hint: '0 for no limit.' },
  { name: 'wait_list_limit', label: 'Wait list places' },
  { name: 'online_enrollment_limit', label: 'Online seats' },
  { name: 'online_wait_list_limit', label: 'Online wait list places' },
];

export function EditEvent({ event, done }: { event: Event; done: () => void }) {
  const id = event.public_id;
  return (
    <FoldedForm
      summary="Edit event"
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
        done();
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
        initial={event.location ? [{ value: String(event.location.id), label: event.location.name, detail: event.location.timezone }] : []}
      />
      {limits.map(({ name, label, hint }) => (
        <Field key={name} name={name} label={label} type="number" min={0} defaultValue={String(event[name])} hint={hint} />
      ))}
      <Field name="is_local" label="In person" type="checkbox" defaultChecked={event.is_local} />
      <Field name="is_online" label="Online" type="checkbox" defaultChecked={event.is_online} />
      <Field name="is_hidden" label="Hidden" type="checkbox" defaultChecked={event.is_hidden} />
    </FoldedForm>
  );
}
