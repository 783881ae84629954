import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import ICAL from 'ical.js';
import { calendarDocument, invitationsFor, type CalendarSlot } from './calendar-document.ts';

const slot = (n: number, extra: Partial<CalendarSlot> = {}): CalendarSlot => ({
  uid: `${n}-ev1@lectern`,
  summary: 'Ünïcode; and, a long summary that the library folds over more than one line of text',
  description: 'Line one\nline two',
  location: 'Room 😀 '.repeat(12),
  url: null,
  startsAtUtc: '2027-06-01T09:00:00Z',
  endsAtUtc: '2027-06-01T11:00:00Z',
  stamp: '2026-11-28T10:00:00Z',
  sequence: 2,
  status: 'CONFIRMED',
  ...extra,
});

const attendees = [
  { name: 'Ada Lovelace', email: 'ada@example.com' },
  { name: 'Zoë Ünïcode-Name with a name long enough to fold the line twice over 😀😀😀', email: 'zoe@example.com' },
  { name: 'Eve "quoted"', email: `eve${'x'.repeat(70)}@example.com` },
];

describe('invitations for many attendees', () => {
  for (const [label, doc] of [
    [
      'one timeslot, REQUEST',
      { name: 'Intro', slots: [slot(1)], method: 'REQUEST', organizer: { name: 'Lectern', email: 'l@example.com' } },
    ],
    [
      'two timeslots, CANCEL',
      {
        name: 'Intro',
        slots: [slot(1), slot(2, { status: 'CANCELLED' })],
        method: 'CANCEL',
        organizer: { name: 'Lectern', email: 'l@example.com' },
      },
    ],
  ] as const) {
    it(`are the document calendarDocument writes for each attendee (${label})`, () => {
      const write = invitationsFor(doc);
      for (const attendee of attendees) {
        const text = write(attendee);
        assert.equal(text, calendarDocument({ ...doc, attendee }));
        const vevents = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
        assert.equal(vevents.length, doc.slots.length);
        for (const vevent of vevents) assert.equal(vevent.getFirstPropertyValue('attendee'), `MAILTO:${attendee.email}`);
        assert.ok(!text.includes('lectern.invalid'), 'the stand-in attendee is gone');
      }
    });
  }
});
