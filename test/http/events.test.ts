import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { lastSequence, outboxAfter } from '../helpers/outbox.ts';
import { expectError, expectFieldError, userWithToken, type ApiClient, useServer } from '../helpers/server.ts';

/** The event fields of docs/events.md, in order. */
const eventKeys = [
  'public_id',
  'name',
  'content_type',
  'description',
  'event_series',
  'timeslots',
  'starts_at',
  'ends_at',
  'starts_at_utc',
  'ends_at_utc',
  'location_id',
  'location',
  'is_local',
  'is_online',
  'is_hidden',
  'enrollment_limit',
  'wait_list_limit',
  'online_enrollment_limit',
  'online_wait_list_limit',
  'body_markdown',
  'tags',
  'external_link',
  'external_link_description',
  'cover_url',
  'channel',
  'facilitators',
  'is_archived',
  'created',
  'modified',
  'enrollment_counts',
];
const timeslotDerived = ['event_series', 'timeslots', 'starts_at', 'ends_at', 'starts_at_utc', 'ends_at_utc', 'enrollment_counts'];
const seriesKeys = [
  'public_id',
  'name',
  'content_type',
  'description',
  'duration',
  ...eventKeys.slice(10).filter((key) => !timeslotDerived.includes(key)),
];

let runCounter = 0;
const runTag = () => `ev-${process.pid}-${Date.now()}-${runCounter++}`;

describe('events, event series and locations', () => {
  const server = useServer();
  let api: ApiClient;
  let berlin: { id: number; name: string; timezone: string };
  let newYork: { id: number; name: string; timezone: string };
  let channel: { public_id: string; name: string };
  let ann: any;
  let bob: any;

  before(async () => {
    api = server.api;
    berlin = (await api.post('/api/v2/locations/', { name: 'Berlin office', timezone: 'Europe/Berlin' })).body;
    newYork = (await api.post('/api/v2/locations/', { name: 'New York office', timezone: 'America/New_York' })).body;
    channel = (await api.post('/api/v2/channels/', { name: 'Live sessions' })).body;
    ann = (await api.post('/api/v2/users/', { email: `ann.${runTag()}@example.com`, name: 'Ann' })).body;
    bob = (await api.post('/api/v2/users/', { email: `bob.${runTag()}@example.com`, name: 'Bob' })).body;
  });

  const ref = (user: any) => ({ public_id: user.public_id, name: user.name, email: user.email });

  const createSeries = async (fields: Record<string, unknown> = {}) => {
    const response = await api.post('/api/v2/event-series/', { name: 'Weekly clinic', ...fields });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };
  const createEvent = async (fields: Record<string, unknown> = {}) => {
    const response = await api.post('/api/v2/events/', {
      name: 'Session',
      timeslots: [{ starts_at: '2026-06-01T09:00:00Z', duration: 'PT1H' }],
      ...fields,
    });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };
  /** A series with a value in every field an event can take from it. */
  const fullSeries = () =>
    createSeries({
      description: 'About the clinic',
      duration: 90,
      location_id: berlin.id,
      is_local: true,
      is_online: true,
      is_hidden: false,
      enrollment_limit: 10,
      wait_list_limit: 5,
      online_enrollment_limit: 100,
      online_wait_list_limit: 20,
      body_markdown: '# Agenda',
      tags: ['clinic', 'weekly'],
      external_link: 'https://example.com/clinic',
      external_link_description: 'Clinic page',
      cover_url: 'https://example.com/cover.png',
      channel_id: channel.public_id,
      facilitators: { organizer_id: ann.public_id, co_organizer_ids: [bob.public_id], presenter_ids: [ann.public_id, bob.public_id] },
    });

  describe('locations', () => {
    it('creates, reads and lists locations with integer ids and IANA zones', async () => {
      assert.deepEqual(Object.keys(berlin), ['id', 'name', 'timezone']);
      assert.equal(typeof berlin.id, 'number');
      const read = await api.get(`/api/v2/locations/${berlin.id}/`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body, berlin);
      assert.ok(read.headers.get('etag'));
      const listed = await api.get('/api/v2/locations/?search=office&ordering=-id');
      assert.equal(listed.status, 200);
      assert.ok(listed.body.meta.total_count >= 2);
      assert.deepEqual(listed.body.data.map((l: any) => l.id).slice(0, 2), [newYork.id, berlin.id]);
      assert.deepEqual((await api.get('/api/v2/locations/?timezone=America/New_York')).body.data, [newYork]);
    });

    it('rejects unknown zones and names nothing with a non-integer id', async () => {
      for (const timezone of ['Mars/Olympus', '+02:00', '', 42]) {
        expectFieldError(await api.post('/api/v2/locations/', { name: 'Somewhere', timezone }), 'timezone');
      }
      expectFieldError(await api.post('/api/v2/locations/', { timezone: 'UTC' }), 'name');
      expectError(await api.get('/api/v2/locations/abc/'), 404, 'not_found');
      expectError(await api.get('/api/v2/locations/999999/'), 404, 'not_found');
      expectError(await api.delete(`/api/v2/locations/${berlin.id}/`), 405, 'method_not_allowed');
    });
  });

  describe('event series', () => {
    it('creates a series with every field and reads it back in the series shape', async () => {
      const series = await fullSeries();
      assert.deepEqual(Object.keys(series), seriesKeys);
      assert.equal(series.content_type, 'event_type');
      assert.equal(series.duration, 90);
      assert.deepEqual(series.location, berlin);
      assert.deepEqual(series.channel, { public_id: channel.public_id, name: channel.name });
      assert.deepEqual(series.facilitators, {
        organizer: ref(ann),
        co_organizers: [ref(bob)],
        presenters: [ref(ann), ref(bob)],
      });
      const read = await api.get(`/api/v2/event-series/${series.public_id}/`);
      assert.deepEqual(read.body, series);
      // an event series is a content item of type event_type
      const summary = (await api.get(`/api/v2/content-items/${series.public_id}/`)).body;
      assert.deepEqual([summary.content_type, summary.duration_minutes, summary.tags], ['event_type', 90, ['clinic', 'weekly']]);
    });

    it('defaults to an in-person series with no limits, duration or location', async () => {
      const series = await createSeries();
      assert.deepEqual(
        [
          series.duration,
          series.location_id,
          series.location,
          series.is_local,
          series.is_online,
          series.enrollment_limit,
          series.body_markdown,
          series.tags,
          series.facilitators,
        ],
        [0, null, null, true, false, 0, null, [], { organizer: null, co_organizers: [], presenters: [] }],
      );
    });

    it('validates fields, references and facilitators', async () => {
      expectFieldError(await api.post('/api/v2/event-series/', { name: 'x', location_id: 999999 }), 'location_id');
      expectFieldError(await api.post('/api/v2/event-series/', { name: 'x', duration: -1 }), 'duration');
      expectFieldError(await api.post('/api/v2/event-series/', { name: 'x', enrollment_limit: 1.5 }), 'enrollment_limit');
      expectFieldError(await api.post('/api/v2/event-series/', { name: 'x', channel_id: crypto.randomUUID() }), 'channel_id');
      expectFieldError(await api.post('/api/v2/event-series/', { name: 'x', cover_url: 'ftp://x' }), 'cover_url');
      expectFieldError(await api.post('/api/v2/event-series/', { name: 'x', timeslots: [] }), 'timeslots');
      const unknown = crypto.randomUUID();
      const response = await api.post('/api/v2/event-series/', {
        name: 'x',
        facilitators: { organizer_id: unknown, presenter_ids: [ann.public_id, ann.public_id] },
      });
      expectFieldError(response, 'facilitators.organizer_id');
      assert.match(response.body.error.field_errors['facilitators.organizer_id'][0], new RegExp(unknown));
      assert.ok(response.body.error.field_errors['facilitators.presenter_ids']);
    });

    it('PATCH changes only the fields sent, and a PATCH changing nothing keeps modified', async () => {
      const series = await fullSeries();
      const patched = await api.patch(`/api/v2/event-series/${series.public_id}/`, { duration: 45, tags: [], location_id: null });
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual(
        { ...patched.body, modified: undefined },
        { ...series, duration: 45, tags: [], location_id: null, location: null, modified: undefined },
      );
      assert.ok(patched.body.modified >= series.modified);
      const same = await api.patch(`/api/v2/event-series/${series.public_id}/`, { duration: 45 });
      assert.equal(same.body.modified, patched.body.modified);
      expectFieldError(await api.patch(`/api/v2/event-series/${series.public_id}/`, { is_archived: true }), 'is_archived');
      const stale = await api.patch(`/api/v2/event-series/${series.public_id}/`, { name: 'n' }, { headers: { 'if-match': '"stale"' } });
      expectError(stale, 412, 'precondition_failed');
    });

    it('offers facilitators as a sub-resource, replaced as a whole by PUT', async () => {
      const series = await fullSeries();
      const path = `/api/v2/event-series/${series.public_id}/facilitators/`;
      assert.deepEqual((await api.get(path)).body, series.facilitators);
      const replaced = await api.put(path, { presenter_ids: [bob.public_id] });
      assert.equal(replaced.status, 200, replaced.text);
      assert.deepEqual(replaced.body, { organizer: null, co_organizers: [], presenters: [ref(bob)] });
      assert.deepEqual((await api.get(`/api/v2/event-series/${series.public_id}/`)).body.facilitators, replaced.body);
      expectFieldError(await api.put(path, { co_organizer_ids: [crypto.randomUUID()] }), 'co_organizer_ids');
      expectFieldError(await api.put(path, { organizer: ann.public_id }), 'organizer');
    });

    it('DELETE removes the series and leaves its events, which no longer name it', async () => {
      const series = await createSeries({ duration: 30 });
      const event = await createEvent({ event_series_id: series.public_id, timeslots: [{ starts_at: '2026-06-01T09:00:00Z' }] });
      assert.deepEqual(event.event_series, { public_id: series.public_id, name: series.name });
      assert.equal((await api.delete(`/api/v2/event-series/${series.public_id}/`)).status, 204);
      expectError(await api.get(`/api/v2/event-series/${series.public_id}/`), 404, 'not_found');
      expectError(await api.delete(`/api/v2/event-series/${series.public_id}/`), 404, 'not_found');
      const kept = (await api.get(`/api/v2/events/${event.public_id}/`)).body;
      assert.equal(kept.event_series, null);
      assert.equal(kept.modified, event.modified);
      assert.equal((await api.get(`/api/v2/events/?event_series_id=${series.public_id}`)).body.meta.total_count, 0);
    });

    it('lists series with filters and ordering', async () => {
      const tag = runTag();
      const b = await createSeries({ name: `B ${tag}`, tags: [tag], duration: 10 });
      const a = await createSeries({ name: `A ${tag}`, tags: [tag], duration: 20, location_id: newYork.id });
      const ids = async (query: string) =>
        (await api.get(`/api/v2/event-series/?tag=${tag}&${query}`)).body.data.map((s: any) => s.public_id);
      assert.deepEqual(await ids(''), [b.public_id, a.public_id]);
      assert.deepEqual(await ids('ordering=name'), [a.public_id, b.public_id]);
      assert.deepEqual(await ids('ordering=-duration'), [a.public_id, b.public_id]);
      assert.deepEqual(await ids(`location_id=${newYork.id}`), [a.public_id]);
      assert.deepEqual(await ids(`search=${encodeURIComponent(`a ${tag}`)}`), [a.public_id]);
      expectError(await api.get('/api/v2/event-series/?ordering=starts_at'), 400, 'bad_request');
      expectError(await api.get('/api/v2/event-series/?location_id=x'), 400, 'bad_request');
    });
  });

  describe('inheritance on POST /events/', () => {
    it('returns the event shape of docs/events.md', async () => {
      const event = await createEvent();
      assert.deepEqual(Object.keys(event), eventKeys);
      assert.equal(event.content_type, 'event');
      assert.deepEqual(event.enrollment_counts, { in_person: { enrolled: 0, waitlisted: 0 }, online: { enrolled: 0, waitlisted: 0 } });
      assert.deepEqual(Object.keys(event.timeslots[0]), [
        'id',
        'starts_at',
        'ends_at',
        'starts_at_utc',
        'ends_at_utc',
        'duration',
        'rooms_info',
        'watch_link',
      ]);
      assert.deepEqual((await api.get(`/api/v2/events/${event.public_id}/`)).body, event);
    });

    it('rule 1: every omitted field comes from the series', async () => {
      const series = await fullSeries();
      const event = await createEvent({ event_series_id: series.public_id, timeslots: [{ starts_at: '2026-06-01T09:00:00Z' }] });
      // location_id … external_link: the overridable fields (rule 2) and the location they imply
      for (const field of eventKeys.slice(eventKeys.indexOf('location_id'), eventKeys.indexOf('external_link') + 1)) {
        assert.deepEqual(event[field], series[field], field);
      }
      // the event's own fields are not inherited
      assert.equal(event.name, 'Session');
      assert.equal(event.description, '');
    });

    it('rule 2: each overridable field sent wins over the series', async () => {
      const series = await fullSeries();
      const overrides = {
        body_markdown: 'Own agenda',
        tags: ['own'],
        location_id: newYork.id,
        enrollment_limit: 1,
        wait_list_limit: 2,
        online_enrollment_limit: 3,
        online_wait_list_limit: 4,
        is_local: false,
        is_online: false,
        is_hidden: true,
        external_link: 'https://example.com/own',
      };
      const event = await createEvent({ event_series_id: series.public_id, ...overrides });
      for (const [field, value] of Object.entries(overrides)) assert.deepEqual(event[field], value, field);
      assert.deepEqual(event.location, newYork);
    });

    it('rule 1: null and [] are overrides, not omissions', async () => {
      const series = await fullSeries();
      const event = await createEvent({
        event_series_id: series.public_id,
        body_markdown: null,
        location_id: null,
        external_link: null,
        tags: [],
      });
      assert.deepEqual(
        [event.body_markdown, event.location_id, event.location, event.external_link, event.tags],
        [null, null, null, null, []],
      );
      // with no location the wall clock is UTC
      assert.equal(event.starts_at_utc, '2026-06-01T09:00:00.000Z');
      const nullTags = await createEvent({ event_series_id: series.public_id, tags: null });
      assert.deepEqual(nullTags.tags, []);
    });

    it('rule 3: the series duration fills timeslots that set none', async () => {
      const series = await fullSeries();
      const event = await createEvent({
        event_series_id: series.public_id,
        location_id: null,
        timeslots: [{ starts_at: '2026-06-01T09:00:00Z' }, { starts_at: '2026-06-02T09:00:00Z', duration: 'PT45M' }],
      });
      assert.deepEqual(
        event.timeslots.map((slot: any) => [slot.duration, slot.ends_at]),
        [
          ['PT1H30M', '2026-06-01T10:30:00.000Z'],
          ['PT45M', '2026-06-02T09:45:00.000Z'],
        ],
      );
      // nothing to inherit: 422 on the timeslot
      expectFieldError(
        await api.post('/api/v2/events/', { name: 'x', timeslots: [{ starts_at: '2026-06-01T09:00:00Z' }] }),
        'timeslots.0.duration',
      );
      const noDuration = await createSeries();
      const missing = await api.post('/api/v2/events/', {
        name: 'x',
        event_series_id: noDuration.public_id,
        timeslots: [{ starts_at: '2026-06-01T09:00:00Z', duration: 'PT1H' }, { starts_at: '2026-06-02T09:00:00Z' }],
      });
      expectFieldError(missing, 'timeslots.1.duration');
    });

    it('rule 4: cover, facilitators, channel and external_link_description are copied, with no override on create', async () => {
      const series = await fullSeries();
      const event = await createEvent({ event_series_id: series.public_id });
      assert.deepEqual(
        [event.cover_url, event.facilitators, event.channel, event.external_link_description],
        [series.cover_url, series.facilitators, series.channel, series.external_link_description],
      );
      for (const field of ['cover_url', 'facilitators', 'channel_id', 'external_link_description']) {
        const response = await api.post('/api/v2/events/', {
          name: 'x',
          event_series_id: series.public_id,
          timeslots: [{ starts_at: '2026-06-01T09:00:00Z' }],
          [field]: null,
        });
        expectFieldError(response, field);
        assert.match(response.body.error.field_errors[field][0], /copied from the event series/);
      }
    });

    it('rule 5: later edits to the series do not reach events already scheduled', async () => {
      const series = await fullSeries();
      const event = await createEvent({ event_series_id: series.public_id });
      await api.patch(`/api/v2/event-series/${series.public_id}/`, {
        duration: 15,
        location_id: newYork.id,
        enrollment_limit: 99,
        body_markdown: 'changed',
        tags: ['changed'],
        cover_url: null,
        external_link_description: 'changed',
        channel_id: null,
      });
      await api.put(`/api/v2/event-series/${series.public_id}/facilitators/`, {});
      const read = (await api.get(`/api/v2/events/${event.public_id}/`)).body;
      assert.deepEqual({ ...read, event_series: undefined }, { ...event, event_series: undefined });
    });

    it('validates the series reference, the location and the body', async () => {
      const event = await createEvent();
      const body = { name: 'x', timeslots: [{ starts_at: '2026-06-01T09:00:00Z', duration: 'PT1H' }] };
      expectFieldError(await api.post('/api/v2/events/', { ...body, event_series_id: crypto.randomUUID() }), 'event_series_id');
      // an event is not a series
      expectFieldError(await api.post('/api/v2/events/', { ...body, event_series_id: event.public_id }), 'event_series_id');
      expectFieldError(await api.post('/api/v2/events/', { ...body, location_id: 999999 }), 'location_id');
      expectFieldError(await api.post('/api/v2/events/', { name: 'x' }), 'timeslots');
      expectFieldError(await api.post('/api/v2/events/', { name: 'x', timeslots: [] }), 'timeslots');
      expectFieldError(await api.post('/api/v2/events/', { ...body, starts_at: '2026-06-01T09:00:00Z' }), 'starts_at');
      expectFieldError(await api.post('/api/v2/events/', { ...body, enrollment_limit: -1 }), 'enrollment_limit');
      expectFieldError(await api.post('/api/v2/events/', { ...body, is_local: null }), 'is_local');
    });
  });

  describe('timeslots and time zones', () => {
    const slotsOf = async (location: { id: number } | null, timeslots: unknown[]) =>
      createEvent({ location_id: location?.id ?? null, timeslots });

    it('accepts ISO-8601 durations and rejects anything else with 422', async () => {
      const event = await slotsOf(null, [
        { starts_at: '2026-06-01T09:00:00Z', duration: 'PT1H' },
        { starts_at: '2026-06-02T09:00:00Z', duration: 'PT1H30M' },
        { starts_at: '2026-06-03T09:00:00Z', duration: 'PT90M' },
      ]);
      assert.deepEqual(
        event.timeslots.map((s: any) => [s.duration, s.ends_at]),
        [
          ['PT1H', '2026-06-01T10:00:00.000Z'],
          ['PT1H30M', '2026-06-02T10:30:00.000Z'],
          ['PT1H30M', '2026-06-03T10:30:00.000Z'],
        ],
      );
      for (const duration of ['90', '1h30m', 'PT', 'P1M', 'PT0M', '-PT1H', 'PT30S']) {
        const response = await api.post('/api/v2/events/', { name: 'x', timeslots: [{ starts_at: '2026-06-01T09:00:00Z', duration }] });
        expectFieldError(response, 'timeslots.0.duration');
      }
      for (const starts_at of ['2026-06-31T09:00:00Z', '2026-06-01T09:00:00+02:00', 'soon']) {
        const response = await api.post('/api/v2/events/', { name: 'x', timeslots: [{ starts_at, duration: 'PT1H' }] });
        expectFieldError(response, 'timeslots.0.starts_at');
      }
      const readOnly = await api.post('/api/v2/events/', {
        name: 'x',
        timeslots: [{ starts_at: '2026-06-01T09:00:00Z', duration: 'PT1H', ends_at: '2026-06-01T10:00:00Z', id: 3 }],
      });
      expectFieldError(readOnly, 'timeslots.0.ends_at');
      expectFieldError(readOnly, 'timeslots.0.id');
    });

    it("reads starts_at as the location's wall clock and exposes the true instants", async () => {
      const event = await slotsOf(berlin, [
        { starts_at: '2026-07-01T09:00:00Z', duration: 'PT2H', rooms_info: 'Room 4', watch_link: 'https://example.com/live' },
      ]);
      const [slot] = event.timeslots;
      assert.deepEqual(
        { ...slot, id: undefined },
        {
          id: undefined,
          starts_at: '2026-07-01T09:00:00.000Z',
          ends_at: '2026-07-01T11:00:00.000Z',
          starts_at_utc: '2026-07-01T07:00:00.000Z',
          ends_at_utc: '2026-07-01T09:00:00.000Z',
          duration: 'PT2H',
          rooms_info: 'Room 4',
          watch_link: 'https://example.com/live',
        },
      );
      assert.equal(typeof slot.id, 'number');
    });

    it('is correct across the spring-forward change (Berlin, 2026-03-29 02:00 → 03:00)', async () => {
      const event = await slotsOf(berlin, [
        { starts_at: '2026-03-28T09:00:00Z', duration: 'PT1H' },
        { starts_at: '2026-03-29T01:30:00Z', duration: 'PT2H' },
        { starts_at: '2026-03-30T09:00:00Z', duration: 'PT1H' },
      ]);
      assert.deepEqual(
        event.timeslots.map((s: any) => [s.starts_at, s.ends_at, s.starts_at_utc, s.ends_at_utc]),
        [
          // CET, UTC+1
          ['2026-03-28T09:00:00.000Z', '2026-03-28T10:00:00.000Z', '2026-03-28T08:00:00.000Z', '2026-03-28T09:00:00.000Z'],
          // two real hours from 01:30 CET end at 04:30 CEST, not 03:30
          ['2026-03-29T01:30:00.000Z', '2026-03-29T04:30:00.000Z', '2026-03-29T00:30:00.000Z', '2026-03-29T02:30:00.000Z'],
          // CEST, UTC+2: the same 09:00 is an hour earlier in UTC
          ['2026-03-30T09:00:00.000Z', '2026-03-30T10:00:00.000Z', '2026-03-30T07:00:00.000Z', '2026-03-30T08:00:00.000Z'],
        ],
      );
      assert.deepEqual(
        [event.starts_at, event.ends_at, event.starts_at_utc, event.ends_at_utc],
        ['2026-03-28T09:00:00.000Z', '2026-03-30T10:00:00.000Z', '2026-03-28T08:00:00.000Z', '2026-03-30T08:00:00.000Z'],
      );
    });

    it('moves a start inside the spring-forward gap past it, and takes the first of a repeated hour', async () => {
      const gap = await slotsOf(berlin, [{ starts_at: '2026-03-29T02:30:00Z', duration: 'PT1H' }]);
      assert.deepEqual(
        [gap.starts_at, gap.starts_at_utc, gap.ends_at],
        ['2026-03-29T03:30:00.000Z', '2026-03-29T01:30:00.000Z', '2026-03-29T04:30:00.000Z'],
      );
      // fall back, 2026-10-25 03:00 CEST → 02:00 CET: 02:30 happens twice; the first is CEST
      const overlap = await slotsOf(berlin, [{ starts_at: '2026-10-25T02:30:00Z', duration: 'PT1H' }]);
      assert.deepEqual(
        [overlap.starts_at_utc, overlap.ends_at, overlap.ends_at_utc],
        ['2026-10-25T00:30:00.000Z', '2026-10-25T02:30:00.000Z', '2026-10-25T01:30:00.000Z'],
      );
    });

    it('is correct across the US change (New York, 2026-03-08)', async () => {
      const event = await slotsOf(newYork, [
        { starts_at: '2026-03-07T18:00:00Z', duration: 'PT1H' },
        { starts_at: '2026-03-09T18:00:00Z', duration: 'PT1H' },
      ]);
      assert.deepEqual(
        event.timeslots.map((s: any) => s.starts_at_utc),
        ['2026-03-07T23:00:00.000Z', '2026-03-09T22:00:00.000Z'],
      );
    });

    it('orders timeslots by their start and spans the event over all of them', async () => {
      const event = await slotsOf(null, [
        { starts_at: '2026-06-03T09:00:00Z', duration: 'PT8H' },
        { starts_at: '2026-06-01T09:00:00Z', duration: 'PT1H' },
      ]);
      assert.deepEqual(
        event.timeslots.map((s: any) => s.starts_at),
        ['2026-06-01T09:00:00.000Z', '2026-06-03T09:00:00.000Z'],
      );
      assert.deepEqual([event.starts_at, event.ends_at], ['2026-06-01T09:00:00.000Z', '2026-06-03T17:00:00.000Z']);
      assert.equal((await api.get(`/api/v2/content-items/${event.public_id}/`)).body.duration_minutes, 540);
    });
  });

  describe('PATCH /events/<id>/', () => {
    it('changes only the fields sent', async () => {
      const series = await fullSeries();
      const event = await createEvent({ event_series_id: series.public_id });
      const patched = await api.patch(`/api/v2/events/${event.public_id}/`, {
        name: 'Renamed',
        enrollment_limit: 50,
        cover_url: null,
        external_link_description: 'Own description',
        channel_id: null,
      });
      assert.equal(patched.status, 200, patched.text);
      assert.ok(patched.headers.get('etag'));
      assert.deepEqual(
        { ...patched.body, modified: undefined },
        {
          ...event,
          name: 'Renamed',
          enrollment_limit: 50,
          cover_url: null,
          external_link_description: 'Own description',
          channel: null,
          modified: undefined,
        },
      );
      // no inheritance on PATCH: unlinking the series keeps everything else
      const unlinked = await api.patch(`/api/v2/events/${event.public_id}/`, { event_series_id: null });
      assert.deepEqual(
        { ...unlinked.body, modified: undefined, event_series: undefined },
        { ...patched.body, modified: undefined, event_series: undefined },
      );
      assert.equal(unlinked.body.event_series, null);
    });

    it('replaces the whole set of timeslots, each needing its own duration', async () => {
      const event = await createEvent({ location_id: berlin.id });
      const replaced = await api.patch(`/api/v2/events/${event.public_id}/`, {
        timeslots: [
          { starts_at: '2026-07-01T09:00:00Z', duration: 'PT30M' },
          { starts_at: '2026-07-02T09:00:00Z', duration: 'PT30M' },
        ],
      });
      assert.equal(replaced.status, 200, replaced.text);
      assert.equal(replaced.body.timeslots.length, 2);
      assert.deepEqual([replaced.body.starts_at, replaced.body.ends_at], ['2026-07-01T09:00:00.000Z', '2026-07-02T09:30:00.000Z']);
      assert.ok(replaced.body.timeslots.every((slot: any) => slot.id !== event.timeslots[0].id));
      expectFieldError(await api.patch(`/api/v2/events/${event.public_id}/`, { timeslots: [] }), 'timeslots');
      expectFieldError(
        await api.patch(`/api/v2/events/${event.public_id}/`, { timeslots: [{ starts_at: '2026-07-01T09:00:00Z' }] }),
        'timeslots.0.duration',
      );
      expectFieldError(await api.patch(`/api/v2/events/${event.public_id}/`, { starts_at: '2026-07-01T09:00:00Z' }), 'starts_at');
    });

    it('keeps the wall clock and moves the instants when the location changes zone', async () => {
      const event = await createEvent({ location_id: berlin.id, timeslots: [{ starts_at: '2026-07-01T09:00:00Z', duration: 'PT1H' }] });
      const moved = (await api.patch(`/api/v2/events/${event.public_id}/`, { location_id: newYork.id })).body;
      assert.equal(moved.timeslots[0].id, event.timeslots[0].id);
      assert.deepEqual([moved.starts_at, moved.starts_at_utc], ['2026-07-01T09:00:00.000Z', '2026-07-01T13:00:00.000Z']);
      const utc = (await api.patch(`/api/v2/events/${event.public_id}/`, { location_id: null })).body;
      assert.deepEqual([utc.starts_at, utc.starts_at_utc, utc.location], ['2026-07-01T09:00:00.000Z', '2026-07-01T09:00:00.000Z', null]);
    });

    it('honours If-Match and leaves modified alone when nothing changes', async () => {
      const event = await createEvent();
      const read = await api.get(`/api/v2/events/${event.public_id}/`);
      const etag = read.headers.get('etag')!;
      assert.equal((await api.get(`/api/v2/events/${event.public_id}/`, { headers: { 'if-none-match': etag } })).status, 304);
      expectError(
        await api.patch(`/api/v2/events/${event.public_id}/`, { name: 'x' }, { headers: { 'if-match': '"nope"' } }),
        412,
        'precondition_failed',
      );
      const same = await api.patch(`/api/v2/events/${event.public_id}/`, { name: event.name }, { headers: { 'if-match': etag } });
      assert.equal(same.status, 200);
      assert.equal(same.body.modified, event.modified);
    });

    it('offers the facilitators sub-resource on events too', async () => {
      const event = await createEvent();
      const path = `/api/v2/events/${event.public_id}/facilitators/`;
      assert.deepEqual((await api.get(path)).body, { organizer: null, co_organizers: [], presenters: [] });
      const put = await api.put(path, { organizer_id: bob.public_id, co_organizer_ids: [ann.public_id] });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.body, { organizer: ref(bob), co_organizers: [ref(ann)], presenters: [] });
      assert.deepEqual((await api.get(`/api/v2/events/${event.public_id}/`)).body.facilitators, put.body);
      expectFieldError(await api.patch(`/api/v2/events/${event.public_id}/`, { facilitators: {} }), 'facilitators');
    });
  });

  describe('lists', () => {
    it('filters by event_series_id, created__gte, tag and start, and orders by name, created, modified and starts_at', async () => {
      const tag = runTag();
      const series = await createSeries({ tags: [tag], duration: 60 });
      const first = await createEvent({
        name: 'Charlie',
        event_series_id: series.public_id,
        timeslots: [{ starts_at: '2026-09-03T09:00:00Z' }],
      });
      const second = await createEvent({
        name: 'alpha',
        tags: [tag],
        timeslots: [{ starts_at: '2026-09-01T09:00:00Z', duration: 'PT1H' }],
      });
      const third = await createEvent({
        name: 'Bravo',
        event_series_id: series.public_id,
        timeslots: [{ starts_at: '2026-09-02T09:00:00Z' }],
      });
      await api.patch(`/api/v2/events/${first.public_id}/`, { description: 'touched last' });
      const ids = async (query: string) => {
        const response = await api.get(`/api/v2/events/?tag=${tag}&${query}`);
        assert.equal(response.status, 200, response.text);
        return response.body.data.map((event: any) => event.public_id);
      };
      assert.deepEqual(await ids(''), [first.public_id, second.public_id, third.public_id]);
      assert.deepEqual(await ids(`event_series_id=${series.public_id}`), [first.public_id, third.public_id]);
      assert.deepEqual(await ids(`created__gte=${encodeURIComponent(second.created)}`), [second.public_id, third.public_id]);
      assert.deepEqual(await ids('ordering=-created'), [third.public_id, second.public_id, first.public_id]);
      assert.deepEqual(await ids('ordering=-modified'), [first.public_id, third.public_id, second.public_id]);
      assert.deepEqual(await ids('ordering=starts_at'), [second.public_id, third.public_id, first.public_id]);
      // binary collation, as content names order
      assert.deepEqual(await ids('ordering=name'), [third.public_id, first.public_id, second.public_id]);
      assert.deepEqual(await ids('starts_at_utc__gte=2026-09-02&starts_at_utc__lte=2026-09-02'), [third.public_id]);
      assert.deepEqual(await ids(`event_series_id=${crypto.randomUUID()}`), []);
      const listed = (await api.get(`/api/v2/events/?tag=${tag}&ordering=name&page_size=1`)).body;
      assert.deepEqual(listed.meta, { page: 1, page_size: 1, total_count: 3 });
      assert.deepEqual(listed.data[0], (await api.get(`/api/v2/events/${third.public_id}/`)).body);
      for (const query of ['event_series_id=nope', 'created__gte=yesterday', 'ordering=duration', 'is_online=maybe']) {
        expectError(await api.get(`/api/v2/events/?${query}`), 400, 'bad_request');
      }
      // events are content items too; two inherited the series' tag
      const content = (await api.get(`/api/v2/content-items/?tag=${tag}&content_type=event,event_type`)).body;
      assert.equal(content.meta.total_count, 4);
    });
  });

  describe('DELETE /events/<id>/', () => {
    it('deletes (204, then 404) unless a track references the event (409 referenced_by_track)', async () => {
      const held = await createEvent();
      const track = (await api.post('/api/v2/tracks/', { name: 'Path', items: [held.public_id] })).body;
      expectError(await api.delete(`/api/v2/events/${held.public_id}/`), 409, 'referenced_by_track');
      assert.equal((await api.get(`/api/v2/events/${held.public_id}/`)).status, 200);
      await api.patch(`/api/v2/tracks/${track.public_id}/`, { items: [] });
      assert.equal((await api.delete(`/api/v2/events/${held.public_id}/`)).status, 204);
      expectError(await api.get(`/api/v2/events/${held.public_id}/`), 404, 'not_found');
      expectError(await api.delete(`/api/v2/events/${held.public_id}/`), 404, 'not_found');
      expectError(await api.get(`/api/v2/content-items/${held.public_id}/`), 404, 'not_found');
    });

    it('answers 404 for a series id on the events path and the other way round', async () => {
      const series = await createSeries();
      const event = await createEvent();
      expectError(await api.get(`/api/v2/events/${series.public_id}/`), 404, 'not_found');
      expectError(await api.delete(`/api/v2/events/${series.public_id}/`), 404, 'not_found');
      expectError(await api.get(`/api/v2/event-series/${event.public_id}/`), 404, 'not_found');
      expectError(await api.get('/api/v2/events/not-a-uuid/'), 404, 'not_found');
    });
  });

  describe('permissions and visibility', () => {
    it('lets organizers write; users read only the events they may see, and write nothing', async () => {
      const organizer = await userWithToken(server, 'organizer');
      const learner = await userWithToken(server, 'user');
      const tag = runTag();
      const visible = (
        await organizer.api.post('/api/v2/events/', {
          name: 'Open',
          tags: [tag],
          timeslots: [{ starts_at: '2026-06-01T09:00:00Z', duration: 'PT1H' }],
        })
      ).body;
      const hidden = await createEvent({ tags: [tag], is_hidden: true });
      const group = (await api.post('/api/v2/groups/', { name: `restricted ${tag}` })).body;
      const restricted = await createEvent({ tags: [tag] });
      await api.patch(`/api/v2/content-items/${restricted.public_id}/`, { groups: [group.public_id] });

      const listed = (await learner.api.get(`/api/v2/events/?tag=${tag}`)).body;
      assert.deepEqual(
        listed.data.map((e: any) => e.public_id),
        [visible.public_id],
      );
      assert.equal((await learner.api.get(`/api/v2/events/${visible.public_id}/`)).status, 200);
      for (const id of [hidden.public_id, restricted.public_id]) {
        expectError(await learner.api.get(`/api/v2/events/${id}/`), 404, 'not_found');
        expectError(await learner.api.get(`/api/v2/events/${id}/facilitators/`), 404, 'not_found');
      }
      await api.post(`/api/v2/groups/${group.public_id}/members/`, { member_ids: [learner.user.public_id] });
      assert.equal((await learner.api.get(`/api/v2/events/${restricted.public_id}/`)).status, 200);

      expectError(await learner.api.post('/api/v2/events/', { name: 'x', timeslots: [] }), 403, 'forbidden');
      expectError(await learner.api.patch(`/api/v2/events/${visible.public_id}/`, { name: 'x' }), 403, 'forbidden');
      expectError(await learner.api.post('/api/v2/locations/', { name: 'x', timezone: 'UTC' }), 403, 'forbidden');
      expectError(await learner.api.post('/api/v2/event-series/', { name: 'x' }), 403, 'forbidden');
      assert.equal((await learner.api.get('/api/v2/locations/')).status, 200);

      const readOnly = await userWithToken(server, 'organizer', 'events:read');
      expectError(await readOnly.api.post('/api/v2/locations/', { name: 'x', timezone: 'UTC' }), 403, 'insufficient_scope');
      const noEvents = await userWithToken(server, 'organizer', 'content:read');
      expectError(await noEvents.api.get('/api/v2/events/'), 403, 'insufficient_scope');
    });
  });

  describe('webhook events', () => {
    it('records content_item.* with the summary and event.* / event_type.* with the GET shape, in the same transaction', async () => {
      const since = await lastSequence(server.dbFile);
      const series = await fullSeries();
      const event = await createEvent({ event_series_id: series.public_id });
      const patched = (await api.patch(`/api/v2/events/${event.public_id}/`, { enrollment_limit: 11 })).body;
      const renamed = (await api.patch(`/api/v2/content-items/${event.public_id}/`, { name: 'Via content' })).body;
      await api.post('/api/v2/content-items/bulk/archive/', { items: [{ public_id: event.public_id }] });
      const archived = (await api.get(`/api/v2/events/${event.public_id}/`)).body;
      await api.patch(`/api/v2/events/${event.public_id}/`, { enrollment_limit: 11 }); // no change, no event
      expectFieldError(await api.patch(`/api/v2/events/${event.public_id}/`, { enrollment_limit: -5 }), 'enrollment_limit');
      await api.delete(`/api/v2/events/${event.public_id}/`);

      const events = await outboxAfter(server.dbFile, since);
      assert.deepEqual(
        events.map((e) => e.type),
        [
          'content_item.created',
          'event_type.created',
          'content_item.created',
          'event.created',
          'content_item.updated',
          'event.updated',
          'content_item.updated',
          'event.updated',
          'content_item.archived',
          'event.archived',
          'content_item.deleted',
          'event.deleted',
        ],
      );
      const objects = events.map((e) => e.payload.data.object);
      assert.deepEqual(objects[1], series);
      assert.deepEqual(objects[3], event);
      assert.deepEqual(objects[5], patched);
      assert.equal(objects[4].content_type, 'event');
      assert.equal(objects[4].public_id, event.public_id);
      assert.ok(!('timeslots' in objects[4]), 'the generic family carries the summary');
      assert.equal(objects[6].name, renamed.name);
      assert.deepEqual(Object.keys(objects[7]), eventKeys);
      assert.equal(objects[7].name, 'Via content');
      assert.deepEqual(objects[9], archived);
      assert.deepEqual(objects[11], archived);
    });
  });
});
