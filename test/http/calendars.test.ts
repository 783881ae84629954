/**
 * Calendars (docs/notifications.md): an event's .ics and the personal feed, read back with ical.js,
 * a parser independent of the library that writes them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import ICAL from 'ical.js';
import { expectError, uniqueEmail, userWithToken, useServer, type TestServer } from '../helpers/server.ts';

interface ParsedEvent {
  uid: string;
  summary: string;
  start: string;
  end: string;
  allDay: boolean;
  sequence: number;
  status: string | null;
  location: string | null;
  url: string | null;
}

/** Every VEVENT of a document, through ical.js. */
function parseCalendar(text: string): ParsedEvent[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  assert.equal(calendar.name, 'vcalendar');
  return calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      summary: event.summary,
      start: event.startDate.isDate ? event.startDate.toString() : event.startDate.toJSDate().toISOString(),
      end: event.endDate.isDate ? event.endDate.toString() : event.endDate.toJSDate().toISOString(),
      allDay: event.startDate.isDate,
      sequence: event.sequence,
      status: (component.getFirstPropertyValue('status') as string | null) ?? null,
      location: event.location ?? null,
      url: (component.getFirstPropertyValue('url') as string | null) ?? null,
    };
  });
}

/** A GET outside ApiClient, which expects JSON. */
async function fetchIcs(server: TestServer, path: string, token: string | null, headers: Record<string, string> = {}) {
  const response = await fetch(server.url + path, { headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('calendars', () => {
  const server = useServer({ args: ['--public-url', 'https://learn.example.com'] });

  const berlinEvent = async (fields: Record<string, unknown> = {}) => {
    const location = (await server.api.post('/api/v2/locations/', { name: 'Main hall', timezone: 'Europe/Berlin' })).body;
    const response = await server.api.post('/api/v2/events/', {
      name: 'Night shift, with commas; and semicolons',
      description: 'About the night',
      location_id: location.id,
      is_local: true,
      // Berlin moves from 02:00 CET to 03:00 CEST on 29 March 2026: this slot crosses the change
      timeslots: [
        { starts_at: '2026-03-29T01:30:00Z', duration: 'PT2H', rooms_info: 'Room 4', watch_link: 'https://watch.example.com/1' },
        { starts_at: '2026-04-01T09:00:00Z', duration: 'PT1H' },
      ],
      ...fields,
    });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };

  it("writes one VEVENT per timeslot with stable UIDs and UTC times from the location's zone, across a DST change", async () => {
    const event = await berlinEvent();
    const response = await fetchIcs(server, `/api/v2/events/${event.public_id}/calendar.ics`, server.adminToken);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.headers.get('content-type'), 'text/calendar; charset=utf-8');
    assert.ok(response.headers.get('etag'));
    const parsed = parseCalendar(response.text);
    const [first, second] = event.timeslots;
    assert.deepEqual(parsed, [
      {
        uid: `${first.id}-${event.public_id}@lectern`,
        summary: 'Night shift, with commas; and semicolons',
        // 01:30 CET is 00:30 UTC; two hours later it is 04:30 CEST, 02:30 UTC
        start: '2026-03-29T00:30:00.000Z',
        end: '2026-03-29T02:30:00.000Z',
        allDay: false,
        sequence: 0,
        status: 'CONFIRMED',
        location: 'Main hall, Room 4',
        url: 'https://watch.example.com/1',
      },
      {
        uid: `${second.id}-${event.public_id}@lectern`,
        summary: 'Night shift, with commas; and semicolons',
        start: '2026-04-01T07:00:00.000Z',
        end: '2026-04-01T08:00:00.000Z',
        allDay: false,
        sequence: 0,
        status: 'CONFIRMED',
        location: 'Main hall',
        url: null,
      },
    ]);
    assert.equal(parsed[0]!.end, new Date(first.ends_at_utc).toISOString());

    const again = await fetchIcs(server, `/api/v2/events/${event.public_id}/calendar.ics`, server.adminToken, {
      'if-none-match': response.headers.get('etag')!,
    });
    assert.equal(again.status, 304);
  });

  it('raises SEQUENCE with every change of the event, and not for a PATCH that changes nothing', async () => {
    const event = await berlinEvent();
    const sequence = async () =>
      parseCalendar((await fetchIcs(server, `/api/v2/events/${event.public_id}/calendar.ics`, server.adminToken)).text).map(
        (entry) => entry.sequence,
      );
    assert.deepEqual(await sequence(), [0, 0]);
    assert.equal((await server.api.patch(`/api/v2/events/${event.public_id}/`, { name: 'Renamed' })).status, 200);
    assert.deepEqual(await sequence(), [1, 1]);
    assert.equal((await server.api.patch(`/api/v2/events/${event.public_id}/`, { name: 'Renamed' })).status, 200);
    assert.deepEqual(await sequence(), [1, 1]);
    const moved = await server.api.patch(`/api/v2/events/${event.public_id}/`, {
      timeslots: [{ starts_at: '2026-05-01T10:00:00Z', duration: 'PT1H' }],
    });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual(await sequence(), [2]);
  });

  it('has the visibility of the event: 404 for an event the caller may not see, and without a token 401', async () => {
    const learner = await userWithToken(server, 'user');
    const hidden = await berlinEvent({ is_hidden: true });
    const response = await fetchIcs(server, `/api/v2/events/${hidden.public_id}/calendar.ics`, learner.token);
    assert.equal(response.status, 404, response.text);
    assert.equal(JSON.parse(response.text).error.code, 'not_found');
    assert.equal((await fetchIcs(server, `/api/v2/events/${hidden.public_id}/calendar.ics`, null)).status, 401);
    const deleted = await berlinEvent();
    assert.equal((await server.api.delete(`/api/v2/events/${deleted.public_id}/`)).status, 204);
    assert.equal((await fetchIcs(server, `/api/v2/events/${deleted.public_id}/calendar.ics`, server.adminToken)).status, 404);
  });

  it('serves a personal feed: enrolled CONFIRMED, waitlisted TENTATIVE, open due dates all day, with ETags', async () => {
    const learner = await userWithToken(server, 'user');
    const other = (await server.api.post('/api/v2/users/', { email: uniqueEmail('cal'), name: 'Other' })).body;
    const open = await berlinEvent({ name: 'Open seats' });
    const full = await berlinEvent({ name: 'Full', enrollment_limit: 1, wait_list_limit: 5 });
    const enroll = (user: string, event: string) =>
      server.api.post('/api/v2/enrollments/', { user_id: user, event_id: event, attendance_method: 'in_person', accept_waitlist: true });
    assert.equal((await enroll(other.public_id, full.public_id)).status, 201);
    assert.equal((await enroll(learner.user.public_id, open.public_id)).body.status, 'enrolled');
    assert.equal((await enroll(learner.user.public_id, full.public_id)).body.status, 'waitlisted');
    const article = (await server.api.post('/api/v2/articles/', { name: 'Safety rules' })).body;
    const assignment = await server.api.post('/api/v2/assignments/', {
      user_id: learner.user.public_id,
      content_item_id: article.public_id,
      due_date: '2026-03-10',
    });
    assert.equal(assignment.status, 201, assignment.text);

    const created = await learner.api.post('/api/v2/me/calendar-feed/');
    assert.equal(created.status, 201, created.text);
    const url = new URL(created.body.url);
    assert.equal(url.origin, 'https://learn.example.com');
    assert.match(url.pathname, /^\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);

    const feed = await fetchIcs(server, url.pathname, null);
    assert.equal(feed.status, 200, feed.text);
    const entries = parseCalendar(feed.text);
    const byUid = new Map(entries.map((entry) => [entry.uid, entry]));
    for (const slot of open.timeslots) assert.equal(byUid.get(`${slot.id}-${open.public_id}@lectern`)?.status, 'CONFIRMED');
    for (const slot of full.timeslots) assert.equal(byUid.get(`${slot.id}-${full.public_id}@lectern`)?.status, 'TENTATIVE');
    const due = entries.find((entry) => entry.allDay)!;
    assert.deepEqual(
      { summary: due.summary, start: due.start, end: due.end },
      { summary: 'Due: Safety rules', start: '2026-03-10', end: '2026-03-11' },
    );
    assert.equal(entries.length, open.timeslots.length + full.timeslots.length + 1);

    const etag = feed.headers.get('etag')!;
    assert.equal((await fetchIcs(server, url.pathname, null, { 'if-none-match': etag })).status, 304);
    // a completed assignment is no longer open: the feed, and so its tag, changes
    assert.equal((await server.api.post(`/api/v2/assignments/${assignment.body.public_id}/complete/`)).status, 200);
    const after = await fetchIcs(server, url.pathname, null, { 'if-none-match': etag });
    assert.equal(after.status, 200);
    assert.equal(parseCalendar(after.text).filter((entry) => entry.allDay).length, 0);

    // a new address replaces the old one; DELETE turns the feed off
    const replaced = await learner.api.post('/api/v2/me/calendar-feed/');
    assert.equal((await fetchIcs(server, url.pathname, null)).status, 404);
    const current = new URL(replaced.body.url).pathname;
    assert.equal((await fetchIcs(server, current, null)).status, 200);
    assert.equal((await learner.api.delete('/api/v2/me/calendar-feed/')).status, 204);
    assert.equal((await fetchIcs(server, current, null)).status, 404);
    expectError(await learner.api.delete('/api/v2/me/calendar-feed/'), 404, 'not_found');
  });

  it("answers 404 for a malformed or unknown key and for a deactivated user's feed", async () => {
    const learner = await userWithToken(server, 'user');
    const created = await learner.api.post('/api/v2/me/calendar-feed/');
    const path = new URL(created.body.url).pathname;
    assert.equal((await fetchIcs(server, path, null)).status, 200);
    for (const bad of ['/calendar/short.ics', `/calendar/${'A'.repeat(43)}.ics`, path.replace('.ics', '.txt')]) {
      assert.equal((await fetchIcs(server, bad, null)).status, 404, bad);
    }
    assert.equal((await server.api.patch(`/api/v2/users/${learner.user.public_id}/`, { is_active: false })).status, 200);
    assert.equal((await fetchIcs(server, path, null)).status, 404);
  });
});
