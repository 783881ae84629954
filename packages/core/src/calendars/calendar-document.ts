/**
 * iCalendar documents (RFC 5545) for events, personal feeds and invitations (docs/notifications.md).
 * Pure: everything a document says comes from its arguments, so the same data gives the same
 * bytes (the feed's ETag relies on it) and DTSTAMP is the entry's last change, not the clock.
 */
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';

export type SlotStatus = 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED';

/** One timeslot of an event as a VEVENT. */
export interface CalendarSlot {
  uid: string;
  summary: string;
  description: string;
  location: string;
  url: string | null;
  startsAtUtc: string;
  endsAtUtc: string;
  /** when the event last changed: the DTSTAMP */
  stamp: string;
  sequence: number;
  status: SlotStatus;
}

/** An assignment's due date as an all-day VEVENT. */
export interface CalendarDue {
  uid: string;
  summary: string;
  /** YYYY-MM-DD */
  date: string;
  stamp: string;
}

export interface CalendarDocument {
  name: string;
  slots: readonly CalendarSlot[];
  dues?: readonly CalendarDue[];
  /** for an emailed invitation (iTIP): REQUEST, or CANCEL when the seat or the event is gone */
  method?: 'REQUEST' | 'CANCEL';
  /** an invitation's organizer and attendee: calendar clients need both to accept or remove it */
  organizer?: { name: string; email: string };
  attendee?: { name: string; email: string };
}

const PROD_ID = { company: 'Lectern', product: 'Lectern', language: 'EN' };

/** The UID of a timeslot: stable across the event's changes, the same in every document. */
export const slotUid = (timeslotId: number, eventPublicId: string): string => `${timeslotId}-${eventPublicId}@lectern`;
export const dueUid = (assignmentPublicId: string): string => `due-${assignmentPublicId}@lectern`;

/** The day after a YYYY-MM-DD date: an all-day event ends (exclusively) there. */
function nextDay(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/** Midnight UTC of a date: with no calendar zone, ical-generator writes a DATE from the UTC parts. */
const utcMidnight = (date: string): Date => new Date(`${date}T00:00:00Z`);

export function calendarDocument(doc: CalendarDocument): string {
  const calendar = ical({ name: doc.name, prodId: PROD_ID });
  if (doc.method) calendar.method(doc.method === 'REQUEST' ? ICalCalendarMethod.REQUEST : ICalCalendarMethod.CANCEL);
  for (const slot of doc.slots) {
    calendar.createEvent({
      id: slot.uid,
      summary: slot.summary,
      description: slot.description || null,
      location: slot.location || null,
      url: slot.url,
      start: new Date(slot.startsAtUtc),
      end: new Date(slot.endsAtUtc),
      stamp: new Date(slot.stamp),
      sequence: slot.sequence,
      status: ICalEventStatus[slot.status],
      ...(doc.organizer ? { organizer: { name: doc.organizer.name, email: doc.organizer.email } } : {}),
      ...(doc.attendee ? { attendees: [{ name: doc.attendee.name, email: doc.attendee.email, rsvp: false }] } : {}),
    });
  }
  for (const due of doc.dues ?? []) {
    calendar.createEvent({
      id: due.uid,
      summary: due.summary,
      allDay: true,
      start: utcMidnight(due.date),
      end: utcMidnight(nextDay(due.date)),
      stamp: new Date(due.stamp),
    });
  }
  return calendar.toString();
}
