/**
 * iCalendar documents (RFC 5545) for events, personal feeds and invitations (docs/notifications.md).
 * Pure: everything a document says comes from its arguments, so the same data gives the same
 * bytes (the feed's ETag relies on it) and DTSTAMP is the entry's last change, not the clock.
 *
 * Written here rather than through a general calendar library: we use a dozen properties, all in
 * UTC, and an invitation is written for every message of a burst of thousands; the library we used
 * before measured each character's UTF-8 length with a TextEncoder of its own to fold lines. The
 * text is the same as that library wrote for our data (property order, quoting, folding after 74
 * octets), except that the calendar's name is escaped as the TEXT it is and quotes in a name
 * parameter are written as RFC 6868 says.
 */
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

const PROD_ID = '-//Lectern//Lectern//EN';

/** The UID of a timeslot: stable across the event's changes, the same in every document. */
export const slotUid = (timeslotId: number, eventPublicId: string): string => `${timeslotId}-${eventPublicId}@lectern`;
export const dueUid = (assignmentPublicId: string): string => `due-${assignmentPublicId}@lectern`;

/** TEXT (RFC 5545 3.3.11): backslash, semicolon and comma escaped, line breaks as `\n`. */
const text = (value: string): string => value.replace(/[\\;,]/g, '\\$&').replace(/\r\n|\r|\n/g, '\\n');

/**
 * A quoted parameter value (CN="…"): a parameter cannot hold a double quote or a line break at all,
 * so they are written as RFC 6868 has them (^' and ^n, ^^ for the caret itself).
 */
const quoted = (value: string): string =>
  value
    .replace(/\^/g, '^^')
    .replace(/"/g, "^'")
    .replace(/\r\n|\r|\n/g, '^n');

const commonName = (name: string): string => (name ? `;CN="${quoted(name)}"` : '');

/** "2026-03-29T00:30:00.000Z" → "20260329T003000Z" */
const utcStamp = (iso: string): string => {
  const date = new Date(iso).toISOString();
  return `${date.slice(0, 4)}${date.slice(5, 7)}${date.slice(8, 10)}T${date.slice(11, 13)}${date.slice(14, 16)}${date.slice(17, 19)}Z`;
};

/** "2026-03-29" → "20260329" */
const basicDate = (date: string): string => date.replace(/-/g, '');

/** UTF-8 octets of the code point at `index` (a surrogate pair counts once, as 4). */
function octetsAt(line: string, index: number): number {
  const code = line.charCodeAt(index);
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdbff) return 4;
  return 3;
}

/**
 * Content lines of at most 75 octets (RFC 5545 3.1): a line longer than 74 octets goes on after
 * CRLF and a space, never inside a character. Most lines are short and pass through untouched.
 */
function fold(line: string): string {
  if (line.length <= 18 || Buffer.byteLength(line) <= 74) return line;
  let out = '';
  let count = 0;
  for (let index = 0; index < line.length;) {
    const size = octetsAt(line, index);
    const width = size === 4 ? 2 : 1;
    count += size;
    if (count > 74) {
      out += '\r\n ';
      count = size;
    }
    out += line.slice(index, index + width);
    index += width;
  }
  return out;
}

/** The day after a YYYY-MM-DD date: an all-day event ends (exclusively) there. */
function nextDay(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

function slotLines(slot: CalendarSlot, doc: CalendarDocument, lines: string[]): void {
  // an end before the start is taken as the two the wrong way round
  let [start, end] = [slot.startsAtUtc, slot.endsAtUtc];
  if (Date.parse(end) < Date.parse(start)) [start, end] = [end, start];
  lines.push(
    'BEGIN:VEVENT',
    `UID:${slot.uid}`,
    `SEQUENCE:${slot.sequence}`,
    `DTSTAMP:${utcStamp(slot.stamp)}`,
    `DTSTART:${utcStamp(start)}`,
    `DTEND:${utcStamp(end)}`,
    `SUMMARY:${text(slot.summary)}`,
  );
  if (slot.location) lines.push(`LOCATION:${text(slot.location)}`);
  if (slot.description) lines.push(`DESCRIPTION:${text(slot.description)}`);
  // a bare From address has no name: CN is left out (the library refused such an organizer outright)
  if (doc.organizer) lines.push(`ORGANIZER${commonName(doc.organizer.name)}:mailto:${text(doc.organizer.email)}`);
  if (doc.attendee)
    lines.push(`ATTENDEE;ROLE=REQ-PARTICIPANT;RSVP=FALSE${commonName(doc.attendee.name)}:MAILTO:${text(doc.attendee.email)}`);
  if (slot.url) lines.push(`URL;VALUE=URI:${text(slot.url)}`);
  lines.push(`STATUS:${slot.status}`, 'END:VEVENT');
}

function dueLines(due: CalendarDue, lines: string[]): void {
  lines.push(
    'BEGIN:VEVENT',
    `UID:${due.uid}`,
    'SEQUENCE:0',
    `DTSTAMP:${utcStamp(due.stamp)}`,
    `DTSTART;VALUE=DATE:${basicDate(due.date)}`,
    `DTEND;VALUE=DATE:${basicDate(nextDay(due.date))}`,
    'X-MICROSOFT-CDO-ALLDAYEVENT:TRUE',
    'X-MICROSOFT-MSNCALENDAR-ALLDAYEVENT:TRUE',
    `SUMMARY:${text(due.summary)}`,
    'END:VEVENT',
  );
}

export function calendarDocument(doc: CalendarDocument): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${PROD_ID}`];
  if (doc.method) lines.push(`METHOD:${doc.method}`);
  if (doc.name) lines.push(`NAME:${text(doc.name)}`, `X-WR-CALNAME:${text(doc.name)}`);
  for (const slot of doc.slots) slotLines(slot, doc, lines);
  for (const due of doc.dues ?? []) dueLines(due, lines);
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n');
}
