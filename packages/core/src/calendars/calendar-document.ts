/**
 * iCalendar documents (RFC 5545) for events, personal feeds and invitations (docs/notifications.md).
 * Pure: everything a document says comes from its arguments, so the same data gives the same
 * bytes (the feed's ETag relies on it) and DTSTAMP is the entry's last change, not the clock.
 */
import ical, { foldLines, ICalAttendee, ICalCalendarMethod, ICalEventStatus, type ICalCalendar, type ICalEvent } from 'ical-generator';

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
  return calendarOf(doc).toString();
}

export type Attendee = NonNullable<CalendarDocument['attendee']>;

// stands in for the attendee while the shared part is written; `.invalid` is reserved (RFC 2606)
const STAND_IN: Attendee = { name: 'Lectern', email: 'attendee@lectern.invalid' };

/**
 * The invitations to one event state for many attendees (a bulk enrollment's messages), each the
 * same text as `calendarDocument` with that attendee. The library writes the document once with a
 * stand-in attendee, then for each attendee only the ATTENDEE line, folded by its own `foldLines`:
 * folding, a TextEncoder call per character, cost more than the rest of a message's invitation.
 */
export function invitationsFor(doc: Omit<CalendarDocument, 'attendee'>): (attendee: Attendee) => string {
  const calendar = calendarOf({ ...doc, attendee: STAND_IN });
  const event = calendar.events()[0];
  if (!event) return (attendee) => calendarDocument({ ...doc, attendee });
  // every VEVENT carries the attendee: the line is replaced wherever it stands, as whole lines
  const line = (attendee: Attendee) => `\r\n${foldLines(attendeeOf(attendee, event).toString().replace(/\r\n$/, ''))}\r\n`;
  const parts = calendar.toString().split(line(STAND_IN));
  return (attendee) => parts.join(line(attendee));
}

const attendeeOf = (attendee: Attendee, event: ICalEvent) =>
  new ICalAttendee({ name: attendee.name, email: attendee.email, rsvp: false }, event);

function calendarOf(doc: CalendarDocument): ICalCalendar {
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
  return calendar;
}
