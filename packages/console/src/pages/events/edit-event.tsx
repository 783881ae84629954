/**
 * The event's edit forms on its page: the frame each one sends its part of the event with, and the
 * form for its name, series, location, seats and wait-list places and how it is held.
 */
import type { ComponentChildren } from 'preact';
import { api, unwrap } from '../../api/client.ts';
import type { BodyOf, Event } from '../../api/types.ts';
import { checked, Field, FoldedForm, integer, nullableText, text } from '../../components/form.tsx';
import { Picker } from '../../components/picker.tsx';

/** The seats and wait-list places per attendance method: each a count, 0 for no limit. */
const limits: readonly { name: keyof Event & `${string}_limit`; label: string; hint?: string }[] = [
  { name: 'enrollment_limit', label: 'In-person seats', hint: '0 for no limit.' },
  { name: 'wait_list_limit', label: 'Wait list places' },
  { name: 'online_enrollment_limit', label: 'Online seats' },
  { name: 'online_wait_list_limit', label: 'Online wait list places' },
];

/**
 * A folded form on the event's page that sends a part of the event (a PATCH: only the fields `body`
 * answers change), then tells the page (`done`); the event the page loads again, with its new
 * `modified`, resets the fields to what was saved.
 */
export function PatchEventForm({
  event,
  summary,
  submitLabel,
  body,
  done,
  children,
}: {
  event: Event;
  summary: string;
  submitLabel: string;
  body: (data: FormData) => BodyOf<'/api/v2/events/{id}', 'patch'>;
  done: () => void;
  children: ComponentChildren;
}) {
  return (
    <FoldedForm
      summary={summary}
      resetKey={event.modified}
      submitLabel={submitLabel}
      onSubmit={async (data) => {
        await unwrap(api.PATCH('/api/v2/events/{id}', { params: { path: { id: event.public_id } }, body: body(data) }));
        done();
      }}
    >
      {children}
    </FoldedForm>
  );
}

export function EditEvent({ event, done }: { event: Event; done: () => void }) {
  return (
    <PatchEventForm
      event={event}
      summary="Edit event"
      submitLabel="Save"
      body={(data) => ({
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
      })}
      done={done}
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
    </PatchEventForm>
  );
}
