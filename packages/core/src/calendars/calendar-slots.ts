/** How Lectern's events and assignments read as calendar entries (pure). */
import type { EventRecord } from '../events/event.ts';
import type { CalendarSlotSource, FeedDue } from '../ports/calendar-store.ts';
import { slotUid, dueUid, type CalendarDue, type CalendarSlot, type SlotStatus } from './calendar-document.ts';

/** "Main hall, Room 4": where the event is and the timeslot's room, whichever are known. */
const place = (locationName: string | null, rooms: string): string => [locationName, rooms].filter((part) => part).join(', ');

export function calendarSlot(source: CalendarSlotSource, status: SlotStatus): CalendarSlot {
  const { event, timeslot } = source;
  return {
    uid: slotUid(timeslot.id, event.public_id),
    summary: event.name,
    description: event.body_markdown ?? event.description,
    location: place(event.location_name, timeslot.rooms_info),
    url: timeslot.watch_link ?? event.external_link,
    startsAtUtc: timeslot.starts_at_utc,
    endsAtUtc: timeslot.ends_at_utc,
    stamp: event.modified,
    sequence: event.sequence,
    status,
  };
}

/** Every timeslot of an event record as the sources calendarSlot reads. */
export function slotSourcesOf(record: EventRecord): CalendarSlotSource[] {
  const event = {
    public_id: record.content.summary.public_id,
    name: record.content.summary.name,
    description: record.content.summary.description,
    body_markdown: record.settings.body_markdown,
    external_link: record.settings.external_link,
    location_name: record.location?.name ?? null,
    modified: record.content.summary.modified,
    sequence: record.calendarSequence,
  };
  return record.timeslots.map((slot) => ({ event, timeslot: slot }));
}

export const calendarDue = (due: FeedDue): CalendarDue => ({
  uid: dueUid(due.assignment_public_id),
  summary: `Due: ${due.content_name}`,
  date: due.due_date,
  stamp: due.modified,
});
