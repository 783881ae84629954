import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { jobItems } from '../helpers/bulk-jobs.ts';
import { expectError, expectFieldError, uniqueEmail, userWithToken, type ApiClient, useServer } from '../helpers/server.ts';

const jobKeys = ['id', 'status', 'total', 'processed', 'succeeded', 'failed', 'created_at', 'completed_at', 'error_message'];

describe('bulk routes of events, event series and enrollments', () => {
  const server = useServer({ args: ['--rate-limit', '100000'] });
  let api: ApiClient;
  before(async () => {
    api = server.api;
  });

  const newEvent = async (fields: Record<string, unknown> = {}) => {
    const response = await api.post('/api/v2/events/', {
      name: 'Bulk event',
      timeslots: [{ starts_at: '2026-06-01T09:00:00Z', duration: 'PT1H' }],
      ...fields,
    });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };
  const newSeries = async (fields: Record<string, unknown> = {}) => {
    const response = await api.post('/api/v2/event-series/', { name: 'Bulk series', ...fields });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };
  const newUser = async () => (await api.post('/api/v2/users/', { email: uniqueEmail('bulk'), name: 'Bulk' })).body;

  /** Submits, checks the 202, and polls the status route until the job is terminal. */
  const runJob = async (method: 'POST' | 'PATCH', path: string, body: unknown, client: ApiClient = api) => {
    const submitted = await client.request(method, path, { body });
    assert.equal(submitted.status, 202, submitted.text);
    assert.deepEqual(Object.keys(submitted.body), jobKeys);
    assert.equal(submitted.body.status, 'pending');
    assert.deepEqual([submitted.body.processed, submitted.body.succeeded, submitted.body.failed], [0, 0, 0]);
    const deadline = Date.now() + 15_000;
    for (;;) {
      const status = await client.get(`${path}${submitted.body.id}/`);
      assert.equal(status.status, 200, status.text);
      if (status.body.status === 'completed' || status.body.status === 'failed') return status.body;
      assert.ok(Date.now() < deadline, `job never finished: ${status.text}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  describe('PATCH /events/bulk/', () => {
    it('updates each event by public_id, leaving omitted fields alone, and fails bad items on their own', async () => {
      const channel = (await api.post('/api/v2/channels/', { name: 'Bulk channel' })).body;
      const a = await newEvent({ enrollment_limit: 5, tags: ['keep'] });
      const b = await newEvent({ body_markdown: 'keep me' });
      const job = await runJob('PATCH', '/api/v2/events/bulk/', {
        events: [
          { public_id: a.public_id, enrollment_limit: 8, channel_id: channel.public_id },
          { public_id: b.public_id, name: 'Renamed in bulk', is_online: true },
          { public_id: a.public_id, timeslots: [{ starts_at: '2026-06-02T09:00:00Z', duration: 'PT1H' }] },
          { public_id: crypto.randomUUID(), name: 'nobody' },
          { name: 'no id' },
          { public_id: b.public_id, enrollment_limit: -1 },
          'not an object',
        ],
      });
      assert.deepEqual(
        [job.status, job.total, job.processed, job.succeeded, job.failed, job.error_message],
        ['completed', 7, 7, 2, 5, null],
      );
      const readA = (await api.get(`/api/v2/events/${a.public_id}/`)).body;
      const readB = (await api.get(`/api/v2/events/${b.public_id}/`)).body;
      assert.deepEqual(
        [readA.enrollment_limit, readA.channel?.public_id, readA.tags, readA.timeslots.length],
        [8, channel.public_id, ['keep'], 1],
      );
      assert.deepEqual([readB.name, readB.is_online, readB.body_markdown, readB.enrollment_limit], ['Renamed in bulk', true, 'keep me', 0]);
      assert.deepEqual(readA.timeslots, a.timeslots);

      const items = await jobItems(api, `/api/v2/events/bulk/${job.id}/`);
      assert.deepEqual(
        items.map((item) => [item.status, item.public_id, item.created, item.error?.code ?? null]),
        [
          ['succeeded', a.public_id, false, null],
          ['succeeded', b.public_id, false, null],
          ['failed', null, null, 'validation_error'],
          ['failed', null, null, 'not_found'],
          ['failed', null, null, 'validation_error'],
          ['failed', null, null, 'validation_error'],
          ['failed', null, null, 'validation_error'],
        ],
      );
      assert.deepEqual(
        items.slice(2, 6).map((item) => item.error.message.split(':')[0]),
        ['timeslots', 'Event not found.', 'public_id', 'enrollment_limit'],
      );
    });

    it('fills freed seats from the wait list when an item raises a limit', async () => {
      const event = await newEvent({ enrollment_limit: 1 });
      const [a, b] = [await newUser(), await newUser()];
      const enroll = (user: any) =>
        api.post('/api/v2/enrollments/', {
          user_id: user.public_id,
          event_id: event.public_id,
          attendance_method: 'in_person',
          accept_waitlist: true,
        });
      await enroll(a);
      const waiting = (await enroll(b)).body;
      assert.equal(waiting.status, 'waitlisted');
      const job = await runJob('PATCH', '/api/v2/events/bulk/', { events: [{ public_id: event.public_id, enrollment_limit: 2 }] });
      assert.equal(job.succeeded, 1);
      assert.equal((await api.get(`/api/v2/enrollments/${waiting.public_id}/`)).body.status, 'enrolled');
    });

    it('validates the envelope up front: 422 and no job', async () => {
      const event = await newEvent();
      for (const body of [
        {},
        { events: [] },
        { events: {} },
        { event_series: [{ public_id: event.public_id }] },
        { events: Array(201).fill({ public_id: event.public_id }) },
      ]) {
        const response = await api.patch('/api/v2/events/bulk/', body);
        assert.equal(response.status, 422, response.text);
      }
      expectFieldError(await api.patch('/api/v2/events/bulk/', { events: Array(201).fill({ public_id: event.public_id }) }), 'events');
      const full = await api.patch('/api/v2/events/bulk/', {
        events: Array(200).fill({ public_id: event.public_id, name: 'Two hundred' }),
      });
      assert.equal(full.status, 202, full.text);
      assert.equal(full.body.total, 200);
    });
  });

  describe('PATCH /event-series/bulk/', () => {
    it('updates each series and never reaches its events', async () => {
      const series = await newSeries({ duration: 60, enrollment_limit: 4 });
      const event = await newEvent({ event_series_id: series.public_id, timeslots: [{ starts_at: '2026-06-01T09:00:00Z' }] });
      const other = await newSeries();
      const job = await runJob('PATCH', '/api/v2/event-series/bulk/', {
        event_series: [
          { public_id: series.public_id, duration: 30, enrollment_limit: 9 },
          { public_id: other.public_id, tags: ['bulk'] },
          { public_id: event.public_id, name: 'an event is not a series' },
          { public_id: other.public_id, location_id: 999999 },
        ],
      });
      assert.deepEqual([job.status, job.succeeded, job.failed], ['completed', 2, 2]);
      const read = (await api.get(`/api/v2/event-series/${series.public_id}/`)).body;
      assert.deepEqual([read.duration, read.enrollment_limit, read.name], [30, 9, series.name]);
      assert.deepEqual((await api.get(`/api/v2/event-series/${other.public_id}/`)).body.tags, ['bulk']);
      assert.equal((await api.get(`/api/v2/events/${event.public_id}/`)).body.enrollment_limit, 4);
      assert.deepEqual(
        (await jobItems(api, `/api/v2/event-series/bulk/${job.id}/`)).map((item) => [
          item.index,
          item.status,
          item.public_id,
          item.created,
        ]),
        [
          [0, 'succeeded', series.public_id, false],
          [1, 'succeeded', other.public_id, false],
          [2, 'failed', null, null],
          [3, 'failed', null, null],
        ],
      );
      expectFieldError(await api.patch('/api/v2/event-series/bulk/', { events: [{ public_id: series.public_id }] }), 'event_series');
    });
  });

  describe('POST /enrollments/bulk/', () => {
    it('enrolls item by item under the same rules: capacity, create-or-get, per-item failures', async () => {
      const event = await newEvent({ enrollment_limit: 2, wait_list_limit: 1 });
      const users = [];
      for (let i = 0; i < 5; i++) users.push(await newUser());
      const item = (user: any, extra = {}) => ({
        user_id: user.public_id,
        event_id: event.public_id,
        attendance_method: 'in_person',
        accept_waitlist: true,
        ...extra,
      });
      const job = await runJob('POST', '/api/v2/enrollments/bulk/', {
        enrollments: [
          item(users[0]),
          item(users[0]), // identical active enrollment: counts as succeeded
          item(users[1]),
          item(users[2]), // wait list
          item(users[3]), // wait list full
          item(users[4], { attendance_method: 'online' }), // not offered
          { user_id: users[4].public_id },
        ],
      });
      assert.deepEqual([job.status, job.total, job.succeeded, job.failed], ['completed', 7, 4, 3]);
      const listed = (await api.get(`/api/v2/enrollments/?event=${event.public_id}`)).body.data;
      assert.deepEqual(
        listed.map((e: any) => [e.user.public_id, e.status]),
        [
          [users[0].public_id, 'enrolled'],
          [users[1].public_id, 'enrolled'],
          [users[2].public_id, 'waitlisted'],
        ],
      );
      const items = await jobItems(api, `/api/v2/enrollments/bulk/${job.id}/`);
      assert.deepEqual(
        items.map((item) => [item.status, item.public_id, item.created, item.error?.code ?? null]),
        [
          ['succeeded', listed[0].public_id, true, null],
          ['succeeded', listed[0].public_id, false, null],
          ['succeeded', listed[1].public_id, true, null],
          ['succeeded', listed[2].public_id, true, null],
          ['failed', null, null, 'waitlist_full'],
          ['failed', null, null, 'validation_error'],
          ['failed', null, null, 'validation_error'],
        ],
      );
      expectFieldError(await api.post('/api/v2/enrollments/bulk/', { enrollments: [] }), 'enrollments');
      expectFieldError(await api.post('/api/v2/enrollments/bulk/', { enrollments: Array(201).fill(item(users[0])) }), 'enrollments');
    });

    it('runs a learner’s job with the learner’s rights, and shows the job only to its submitter and admins', async () => {
      const learner = await userWithToken(server, 'user');
      const someone = await newUser();
      const event = await newEvent();
      const job = await runJob(
        'POST',
        '/api/v2/enrollments/bulk/',
        {
          enrollments: [
            { user_id: learner.user.public_id, event_id: event.public_id, attendance_method: 'in_person' },
            { user_id: someone.public_id, event_id: event.public_id, attendance_method: 'in_person' },
          ],
        },
        learner.api,
      );
      assert.deepEqual([job.succeeded, job.failed], [1, 1]);
      const other = await userWithToken(server, 'user');
      expectError(await other.api.get(`/api/v2/enrollments/bulk/${job.id}/`), 404, 'not_found');
      expectError(await other.api.get(`/api/v2/enrollments/bulk/${job.id}/items/`), 404, 'not_found');
      assert.deepEqual(
        (await jobItems(learner.api, `/api/v2/enrollments/bulk/${job.id}/`)).map((item) => item.error?.code ?? null),
        [null, 'forbidden'],
      );
      assert.equal((await jobItems(api, `/api/v2/enrollments/bulk/${job.id}/`)).length, 2, 'an admin sees anyone’s job items');
      assert.equal((await api.get(`/api/v2/enrollments/bulk/${job.id}/`)).status, 200);
      // a job of another kind is not found on this path
      expectError(await api.get(`/api/v2/events/bulk/${job.id}/`), 404, 'not_found');
      expectError(await learner.api.patch('/api/v2/events/bulk/', { events: [{ public_id: event.public_id }] }), 403, 'forbidden');
    });
  });
});
