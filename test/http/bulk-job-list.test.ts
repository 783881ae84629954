import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { waitForJob } from '../helpers/bulk-jobs.ts';
import { expectError, uniqueEmail, userWithToken, type ApiClient, useServer } from '../helpers/server.ts';

const LIST = '/api/v2/bulk-jobs/';
const summaryKeys = ['id', 'kind', 'status', 'created_by', 'total', 'succeeded', 'failed', 'created_at', 'completed_at'];

async function submit(api: ApiClient, method: 'post' | 'patch', path: string, body: unknown): Promise<string> {
  const response = await api[method](path, body);
  assert.equal(response.status, 202, response.text);
  await waitForJob(api, `${path}${response.body.id}/`);
  return response.body.id;
}

describe('GET /bulk-jobs/', () => {
  const server = useServer();
  let organizer: Awaited<ReturnType<typeof userWithToken>>;
  const ids: Record<string, string> = {};

  before(async () => {
    const api = server.api;
    organizer = await userWithToken(server, 'organizer');
    ids.users = await submit(api, 'post', '/api/v2/users/bulk/', { users: [{ email: uniqueEmail('listed'), name: 'Listed' }, 'bad'] });
    ids.series = await submit(api, 'patch', '/api/v2/event-series/bulk/', { event_series: [{ public_id: randomUUID() }] });
    ids.organizerEvents = await submit(organizer.api, 'patch', '/api/v2/events/bulk/', { events: [{ public_id: randomUUID() }] });
    ids.organizerAssignments = await submit(organizer.api, 'post', '/api/v2/assignments/bulk/', {
      assignments: [{ user_id: randomUUID(), content_item_id: randomUUID() }],
    });
  });

  it('lists every kind for an admin, newest first, with its submitter and counts', async () => {
    const response = await server.api.get(`${LIST}?page_size=100`);
    assert.equal(response.status, 200, response.text);
    const rows: any[] = response.body.data;
    assert.deepEqual(
      rows.slice(0, 4).map((row) => row.id),
      [ids.organizerAssignments, ids.organizerEvents, ids.series, ids.users],
    );
    assert.deepEqual(Object.keys(rows[0]), summaryKeys);
    const users = rows.find((row) => row.id === ids.users);
    assert.equal(users.kind, 'users');
    assert.equal(users.status, 'completed');
    assert.deepEqual([users.total, users.succeeded, users.failed], [2, 1, 1]);
    assert.ok(users.completed_at >= users.created_at);
    assert.equal(rows.find((row) => row.id === ids.series).kind, 'event-series');
    const organizers = rows.find((row) => row.id === ids.organizerEvents);
    assert.equal(organizers.kind, 'events');
    assert.deepEqual(organizers.created_by, {
      public_id: organizer.user.public_id,
      name: organizer.user.name,
      email: organizer.user.email,
    });
    assert.ok(response.body.meta.total_count >= 4);
  });

  it('shows an organizer only the jobs they submitted', async () => {
    const response = await organizer.api.get(LIST);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(
      response.body.data.map((row: any) => row.id),
      [ids.organizerAssignments, ids.organizerEvents],
    );
    assert.equal(response.body.meta.total_count, 2);
  });

  it('filters by kind and status, and pages by offset', async () => {
    const series = await server.api.get(`${LIST}?kind=event-series`);
    assert.deepEqual(
      series.body.data.map((row: any) => row.id),
      [ids.series],
    );
    const mine = await organizer.api.get(`${LIST}?kind=assignments&status=completed`);
    assert.deepEqual(
      mine.body.data.map((row: any) => row.id),
      [ids.organizerAssignments],
    );
    assert.equal((await server.api.get(`${LIST}?status=pending&kind=users`)).body.meta.total_count, 0);
    const first = await organizer.api.get(`${LIST}?page_size=1`);
    const second = await organizer.api.get(`${LIST}?page_size=1&page=2`);
    assert.deepEqual([first.body.data[0].id, second.body.data[0].id], [ids.organizerAssignments, ids.organizerEvents]);
    const oldestFirst = await organizer.api.get(`${LIST}?ordering=created_at`);
    assert.equal(oldestFirst.body.data[0].id, ids.organizerEvents);
  });

  it('refuses unknown filters values and callers without a read scope', async () => {
    expectError(await server.api.get(`${LIST}?kind=imports`), 400, 'bad_request');
    expectError(await server.api.get(`${LIST}?status=done`), 400, 'bad_request');
    expectError(await server.api.get(`${LIST}?ordering=total`), 400, 'bad_request');
    const narrow = await userWithToken(server, 'organizer', 'content:read');
    expectError(await narrow.api.get(LIST), 403, 'insufficient_scope');
    // a token that may read events only sees the event kinds
    const eventsOnly = await userWithToken(server, 'admin', 'events:read');
    const kinds = new Set((await eventsOnly.api.get(`${LIST}?page_size=100`)).body.data.map((row: any) => row.kind));
    assert.deepEqual([...kinds].sort(), ['event-series', 'events']);
  });
});
