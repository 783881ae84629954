import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectFieldError, startServer, uniqueEmail, userWithToken, type ApiClient, type TestServer } from '../helpers/server.ts';

const jobKeys = ['id', 'status', 'total', 'processed', 'succeeded', 'failed', 'created_at', 'completed_at', 'error_message'];

/** Polls a job's status route until it is terminal (the spec's 2–5 s interval is for clients on a network). */
async function waitForJob(api: ApiClient, path: string, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await api.get(path);
    assert.equal(response.status, 200, response.text);
    if (response.body.status === 'completed' || response.body.status === 'failed') return response.body;
    if (Date.now() > deadline) throw new Error(`job still ${response.body.status}: ${response.text}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('bulk jobs', () => {
  let server: TestServer;
  let api: ApiClient;
  before(async () => {
    server = await startServer();
    api = server.api;
  });
  after(async () => {
    await server.stop();
  });

  describe('POST /users/bulk/', () => {
    it('answers 202 with a pending job, then counts created, duplicate and invalid items', async () => {
      const existing = uniqueEmail('existing');
      assert.equal((await api.post('/api/v2/users/', { email: existing, name: 'Existing' })).status, 201);
      const fresh = uniqueEmail('bulk');
      const regular = uniqueEmail('regular');
      const users = [
        { email: fresh, name: 'Fresh', employee_id: 'E-1' },
        { email: regular, name: 'Regular', role: 'regular' },
        { email: existing.toUpperCase(), name: 'Duplicate of an existing user' },
        { email: fresh, name: 'Duplicate within the job' },
        { email: uniqueEmail('bad-role'), name: 'Bad role', role: 'superuser' },
        { email: 'not-an-email', name: 'Bad email' },
        { email: uniqueEmail('no-name') },
        { email: uniqueEmail('extra'), name: 'Extra', manager: null },
        'not an object',
        { email: uniqueEmail('organizer'), name: 'Organizer', role: 'organizer' },
      ];
      const submitted = await api.post('/api/v2/users/bulk/', { users });
      assert.equal(submitted.status, 202, submitted.text);
      assert.deepEqual(Object.keys(submitted.body), jobKeys);
      assert.equal(submitted.body.status, 'pending');
      assert.deepEqual([submitted.body.total, submitted.body.processed, submitted.body.succeeded, submitted.body.failed], [10, 0, 0, 0]);
      assert.equal(submitted.body.completed_at, null);

      const job = await waitForJob(api, `/api/v2/users/bulk/${submitted.body.id}/`);
      assert.equal(job.status, 'completed');
      assert.deepEqual([job.total, job.processed, job.succeeded, job.failed], [10, 10, 3, 7]);
      assert.ok(job.completed_at >= job.created_at);
      assert.equal(job.error_message, null);

      const created = (await api.get(`/api/v2/users/?email=${encodeURIComponent(regular)}`)).body.data;
      assert.equal(created.length, 1);
      assert.equal(created[0].role, 'user', 'regular is stored as user');
      assert.equal((await api.get(`/api/v2/users/?email=${encodeURIComponent(fresh)}`)).body.data[0].employee_id, 'E-1');
    });

    it('validates the envelope up front: 422 and no job', async () => {
      const item = { email: uniqueEmail(), name: 'X' };
      expectFieldError(await api.post('/api/v2/users/bulk/', {}), 'users');
      expectFieldError(await api.post('/api/v2/users/bulk/', { users: [] }), 'users');
      expectFieldError(await api.post('/api/v2/users/bulk/', { users: item }), 'users');
      expectFieldError(await api.post('/api/v2/users/bulk/', { assignments: [item] }), 'assignments');
      expectFieldError(await api.post('/api/v2/users/bulk/', { users: Array.from({ length: 501 }, () => item) }), 'users');
      const atLimit = await api.post('/api/v2/users/bulk/', { users: Array.from({ length: 500 }, (_, i) => ({ email: uniqueEmail(`limit${i}`), name: 'L' })) });
      assert.equal(atLimit.status, 202, atLimit.text);
      const job = await waitForJob(api, `/api/v2/users/bulk/${atLimit.body.id}/`);
      assert.deepEqual([job.processed, job.succeeded, job.failed], [500, 500, 0]);
    });

    it('is for admins; status is 404 for unknown ids, other kinds, and other people’s jobs', async () => {
      const organizer = await userWithToken(server, 'organizer');
      expectError(await organizer.api.post('/api/v2/users/bulk/', { users: [{ email: uniqueEmail(), name: 'X' }] }), 403, 'forbidden');
      const submitted = await api.post('/api/v2/users/bulk/', { users: [{ email: uniqueEmail(), name: 'X' }] });
      expectError(await api.get('/api/v2/users/bulk/00000000-0000-4000-8000-000000000000/'), 404, 'not_found');
      expectError(await api.get('/api/v2/users/bulk/not-a-uuid/'), 404, 'not_found');
      expectError(await api.get(`/api/v2/assignments/bulk/${submitted.body.id}/`), 404, 'not_found');
      expectError(await organizer.api.get(`/api/v2/users/bulk/${submitted.body.id}/`), 404, 'not_found');
    });
  });

  describe('POST /assignments/bulk/', () => {
    it('creates-or-gets: new and existing pairs succeed; unknown, archived and invalid items fail', async () => {
      const user = (await api.post('/api/v2/users/', { email: uniqueEmail(), name: 'Bulk learner' })).body;
      const article = (await api.post('/api/v2/articles/', { name: 'A' })).body;
      const video = (await api.post('/api/v2/videos/', { name: 'V' })).body;
      const old = (await api.post('/api/v2/courses/', { name: 'Old' })).body;
      const inner = (await api.post('/api/v2/guides/', { name: 'In a track' })).body;
      const track = (await api.post('/api/v2/tracks/', { name: 'T', items: [inner.public_id] })).body;
      await api.post('/api/v2/content-items/bulk/archive/', { items: [{ public_id: old.public_id }] });
      const existing = await api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: video.public_id });
      const pair = (content: any, extra = {}) => ({ user_id: user.public_id, content_item_id: content.public_id, ...extra });

      const submitted = await api.post('/api/v2/assignments/bulk/', {
        assignments: [
          pair(article, { due_date: '2999-01-01' }),
          pair(video),
          pair(article),
          pair(old),
          pair(track),
          { user_id: user.public_id, content_item_id: '00000000-0000-4000-8000-000000000000' },
          { user_id: '00000000-0000-4000-8000-000000000000', content_item_id: article.public_id },
          { user_id: user.public_id },
          pair(article, { due_date: 'soon' }),
        ],
      });
      assert.equal(submitted.status, 202, submitted.text);
      const job = await waitForJob(api, `/api/v2/assignments/bulk/${submitted.body.id}/`);
      assert.deepEqual([job.status, job.total, job.processed, job.succeeded, job.failed], ['completed', 9, 9, 4, 5]);

      const mine = (await api.get(`/api/v2/assignments/?user=${user.public_id}&page_size=100`)).body.data;
      assert.deepEqual(
        mine.map((a: any) => a.content_item.public_id).sort(),
        [article.public_id, video.public_id, track.public_id, inner.public_id].sort(),
      );
      assert.equal(mine.find((a: any) => a.content_item.public_id === video.public_id).public_id, existing.body.public_id);
      assert.equal(mine.find((a: any) => a.content_item.public_id === article.public_id).due_date, '2999-01-01');
    });

    it('limits a request to 200 items', async () => {
      const item = { user_id: '00000000-0000-4000-8000-000000000000', content_item_id: '00000000-0000-4000-8000-000000000000' };
      expectFieldError(await api.post('/api/v2/assignments/bulk/', { assignments: Array.from({ length: 201 }, () => item) }), 'assignments');
      const atLimit = await api.post('/api/v2/assignments/bulk/', { assignments: Array.from({ length: 200 }, () => item) });
      assert.equal(atLimit.status, 202);
      const job = await waitForJob(api, `/api/v2/assignments/bulk/${atLimit.body.id}/`);
      assert.deepEqual([job.processed, job.succeeded, job.failed], [200, 0, 200]);
    });

    it('acts with the submitter’s rights: a learner’s job assigns only to the learner', async () => {
      const learner = await userWithToken(server, 'user');
      const other = (await api.post('/api/v2/users/', { email: uniqueEmail(), name: 'Other' })).body;
      const article = (await api.post('/api/v2/articles/', { name: 'Self-serve' })).body;
      const submitted = await learner.api.post('/api/v2/assignments/bulk/', {
        assignments: [
          { user_id: learner.user.public_id, content_item_id: article.public_id },
          { user_id: other.public_id, content_item_id: article.public_id },
        ],
      });
      assert.equal(submitted.status, 202);
      const job = await waitForJob(learner.api, `/api/v2/assignments/bulk/${submitted.body.id}/`);
      assert.deepEqual([job.succeeded, job.failed], [1, 1]);
    });
  });

  it('keeps answering API requests while a large job runs', async () => {
    const submitted = await api.post('/api/v2/users/bulk/', { users: Array.from({ length: 500 }, (_, i) => ({ email: uniqueEmail(`busy${i}`), name: 'Busy' })) });
    const started = performance.now();
    const response = await api.get('/api/v2/users/?page_size=1');
    assert.equal(response.status, 200);
    assert.ok(performance.now() - started < 1000, 'a request is not held until the job finishes');
    await waitForJob(api, `/api/v2/users/bulk/${submitted.body.id}/`);
  });
});

describe('bulk job crash recovery', () => {
  it('resumes a job after SIGKILL from its first unprocessed item, never counting an item twice', async () => {
    // slow chunks, so the kill lands in the middle of the job
    const first = await startServer({ args: ['--job-chunk-size', '5', '--job-pause-ms', '15'] });
    const prefix = `crash-${process.pid}-${Date.now()}`;
    const users = Array.from({ length: 500 }, (_, i) =>
      i % 50 === 7 ? { email: `${prefix}-${i}-invalid`, name: 'Invalid' } : { email: `${prefix}-${i}@example.com`, name: `Crash ${i}` },
    );
    const submitted = await first.api.post('/api/v2/users/bulk/', { users });
    assert.equal(submitted.status, 202, submitted.text);
    const path = `/api/v2/users/bulk/${submitted.body.id}/`;

    let seen: any;
    const deadline = Date.now() + 20_000;
    do {
      seen = (await first.api.get(path)).body;
      await new Promise((resolve) => setTimeout(resolve, 10));
    } while (seen.processed < 100 && Date.now() < deadline);
    await first.kill();
    assert.equal(seen.status, 'processing');
    assert.ok(seen.processed >= 100 && seen.processed < 500, `killed mid-way (processed ${seen.processed})`);

    const second = await startServer({ dbFile: first.dbFile });
    try {
      // the database already has its admin, so the restart prints no new token
      const api = second.api.withToken(first.adminToken);
      const job = await waitForJob(api, path);
      assert.equal(job.status, 'completed');
      assert.deepEqual([job.total, job.processed, job.succeeded, job.failed], [500, 500, 490, 10]);
      assert.equal(job.succeeded + job.failed, job.total);

      const listed = await api.get(`/api/v2/users/?search=${prefix}&page_size=100`);
      assert.equal(listed.body.meta.total_count, 490, 'exactly one user per valid item');
      const emails = new Set<string>();
      for (let page = 1; page <= 5; page++) {
        for (const row of (await api.get(`/api/v2/users/?search=${prefix}&page_size=100&page=${page}&ordering=email`)).body.data) emails.add(row.email);
      }
      const expected = users.filter((_, i) => i % 50 !== 7).map((user) => user.email);
      assert.deepEqual([...emails].sort(), expected.sort());
    } finally {
      await second.stop();
    }
  });
});
