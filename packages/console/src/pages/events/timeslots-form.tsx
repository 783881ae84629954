/**
 * Editing an event's timeslots on its page: each slot's start (on the location's clock), length and
 * room, plus an empty row to add one; a row left without a start is removed. The API replaces the
 * whole list, so the form sends every row it shows.
 */
import type { Event } from '../../api/types.ts';
import { Field } from '../../components/form.tsx';
import { PatchEventForm } from './edit-event.tsx';

/** A wall-clock time as the API writes it (`…Z` meaning the location's clock) → a datetime-local value. */
const localValue = (wall: string) => wall.slice(0, 16);
const minutesBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 60_000);

export function EditTimeslots({ event, done }: { event: Event; done: () => void }) {
  const rows = [...event.timeslots.map((slot) => ({ ...slot })), null];
  return (
    <PatchEventForm
      event={event}
      summary="Edit timeslots"
      submitLabel="Save timeslots"
      body={(data) => {
        const starts = data.getAll('starts_at').map(String);
        const durations = data.getAll('duration').map(String);
        const rooms = data.getAll('rooms_info').map(String);
        const timeslots = starts.flatMap((start, index) =>
          start ? [{ starts_at: `${start}:00Z`, duration: durations[index] || 'PT1H', rooms_info: rooms[index] || null }] : [],
        );
        return { timeslots };
      }}
      done={done}
    >
      {rows.map((slot, index) => (
        <fieldset key={slot ? `slot-${slot.id}` : 'new'}>
          <legend>{slot ? `Timeslot ${index + 1}` : 'New timeslot'}</legend>
          <Field
            name="starts_at"
            label="Starts at"
            type="datetime-local"
            errorKey={`timeslots.${index}`}
            defaultValue={slot ? localValue(slot.starts_at) : ''}
            hint={slot ? 'Empty to remove this timeslot.' : 'Optional: fill in to add a timeslot.'}
          />
          <Field
            name="duration"
            label="Duration"
            placeholder="PT1H"
            defaultValue={slot ? `PT${minutesBetween(slot.starts_at, slot.ends_at)}M` : ''}
          />
          <Field name="rooms_info" label="Room" defaultValue={slot?.rooms_info ?? ''} />
        </fieldset>
      ))}
    </PatchEventForm>
  );
}
