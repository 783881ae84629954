import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { jobItems, waitForJob } from '../helpers/bulk-jobs.ts';
import { expectError, expectFieldError, startServer, uniqueEmail, userWithToken, type ApiClient, useServer } from '../helpers/server.ts';

const jobKeys = ['id', 'status', 'total', 'processed', 'succeeded', 'failed', 'created_at', 'completed_at', 'error_message'];

describe('bulk jobs', () => {
  const server = useServer();
  let api: ApiClient;
  before(async () => {
    api = server.api;
  });

  describe('POST /users/bulk/', () => {
    it('answers 202 with a pending job, then counts created, duplicate and invalid items', async () => {
      const existing = uniqueEmail('existing');
      const existingUser = await api.post('/api/v2/users/', { email: existing, name: 'Existing' });
      assert.equal(existingUser.status, 201);
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
      const freshUser = (await api.get(`/api/v2/users/?email=${encodeURIComponent(fresh)}`)).body.data[0];
      assert.equal(freshUser.employee_id, 'E-1');

      const jobPath = `/api/v2/users/bulk/${submitted.body.id}/`;
      const items = await jobItems(api, jobPath);
      assert.deepEqual(
        items.map((item) => item.index),
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      );
      assert.deepEqual(items[0], { index: 0, status: 'succeeded', public_id: freshUser.public_id, created: true, error: null });
      assert.deepEqual(items[1], { index: 1, status: 'succeeded', public_id: created[0].public_id, created: true, error: null });
      // a duplicate names the user it collides with, whether that user existed before or came from this job
      assert.deepEqual(
        [items[2], items[3]].map((item) => [item.status, item.public_id, item.created, item.error.code]),
        [
          ['failed', existingUser.body.public_id, null, 'duplicate'],
          ['failed', freshUser.public_id, null, 'duplicate'],
        ],
      );
      const invalid = items.slice(4, 9);
      assert.ok(
        invalid.every(
          (item) => item.status === 'failed' && item.public_id === null && item.created === null && item.error.code === 'validation_error',
        ),
      );
      assert.deepEqual(
        invalid.slice(0, 4).map((item) => item.error.message.split(':')[0]),
        ['role', 'email', 'name', 'manager'],
        'a validation failure names its field',
      );
      assert.match(invalid[3].error.message, /^manager: Unknown field/);
      assert.notEqual(invalid[4].error.message, 'The request body failed validation.');
      assert.deepEqual([items[9].status, items[9].created], ['succeeded', true]);

      const failed = await api.get(`${jobPath}items/?status=failed&page_size=3&page=2`);
      assert.equal(failed.status, 200, failed.text);
      assert.deepEqual(failed.body.meta, { page: 2, page_size: 3, total_count: 7 });
      assert.deepEqual(
        failed.body.data.map((item: any) => item.index),
        [5, 6, 7],
      );
      assert.deepEqual(
        (await jobItems(api, jobPath, '&status=succeeded')).map((item) => item.index),
        [0, 1, 9],
      );
      assert.deepEqual(
        (await jobItems(api, jobPath, '&ordering=-index')).map((item) => item.index),
        [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
      );
      expectError(await api.get(`${jobPath}items/?status=pending`), 400, 'bad_request');
      expectError(await api.get(`${jobPath}items/?page=0`), 400, 'bad_request');
    });

    it('fails each repeat of an email as a duplicate of its first item, however many repeats a chunk holds', async () => {
      // the chunk's batch write leaves repeats to the one-by-one write, which takes 25 to a chunk:
      // 37 repeats run over two chunks, and each must still name the user the first item created
      const email = uniqueEmail('repeated');
      const later = uniqueEmail('later');
      const users = Array.from({ length: 40 }, (_, i) => {
        if (i === 20) return { email: later, name: 'Later' };
        if (i === 30) return { email: 'not-an-email', name: 'Invalid' };
        return { email: i % 2 ? email.toUpperCase() : email, name: `Repeat ${i}` };
      });
      const submitted = await api.post('/api/v2/users/bulk/', { users });
      assert.equal(submitted.status, 202, submitted.text);
      const jobPath = `/api/v2/users/bulk/${submitted.body.id}/`;
      const job = await waitForJob(api, jobPath);
      assert.deepEqual([job.status, job.processed, job.succeeded, job.failed], ['completed', 40, 2, 38]);

      const first = (await api.get(`/api/v2/users/?email=${encodeURIComponent(email)}`)).body.data;
      assert.equal(first.length, 1, 'one user for the repeated email');
      const items = await jobItems(api, jobPath);
      assert.deepEqual(items[0], { index: 0, status: 'succeeded', public_id: first[0].public_id, created: true, error: null });
      assert.deepEqual([items[20].status, items[20].created], ['succeeded', true]);
      assert.deepEqual([items[30].status, items[30].public_id, items[30].error.code], ['failed', null, 'validation_error']);
      const repeats = items.filter((item) => ![0, 20, 30].includes(item.index));
      assert.equal(repeats.length, 37);
      for (const item of repeats) {
        assert.deepEqual(
          item,
          {
            index: item.index,
            status: 'failed',
            public_id: first[0].public_id,
            created: null,
            error: { code: 'duplicate', message: 'A user with this email already exists.' },
          },
          `item ${item.index}`,
        );
      }
    });

    it('validates the envelope up front: 422 and no job', async () => {
      const item = { email: uniqueEmail(), name: 'X' };
      expectFieldError(await api.post('/api/v2/users/bulk/', {}), 'users');
      expectFieldError(await api.post('/api/v2/users/bulk/', { users: [] }), 'users');
      expectFieldError(await api.post('/api/v2/users/bulk/', { users: item }), 'users');
      expectFieldError(await api.post('/api/v2/users/bulk/', { assignments: [item] }), 'assignments');
      expectFieldError(await api.post('/api/v2/users/bulk/', { users: Array.from({ length: 501 }, () => item) }), 'users');
      const atLimit = await api.post('/api/v2/users/bulk/', {
        users: Array.from({ length: 500 }, (_, i) => ({ email: uniqueEmail(`limit${i}`), name: 'L' })),
      });
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
      expectError(await organizer.api.get(`/api/v2/users/bulk/${submitted.body.id}/items/`), 404, 'not_found');
      expectError(await api.get(`/api/v2/assignments/bulk/${submitted.body.id}/items/`), 404, 'not_found');
      expectError(await api.get('/api/v2/users/bulk/00000000-0000-4000-8000-000000000000/items/'), 404, 'not_found');
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
      const assigned = mine.find((a: any) => a.content_item.public_id === article.public_id);
      assert.equal(assigned.due_date, '2999-01-01');

      const items = await jobItems(api, `/api/v2/assignments/bulk/${submitted.body.id}/`);
      const trackAssignment = mine.find((a: any) => a.content_item.public_id === track.public_id);
      assert.deepEqual(
        items.map((item) => [item.index, item.status, item.public_id, item.created]),
        [
          [0, 'succeeded', assigned.public_id, true],
          [1, 'succeeded', existing.body.public_id, false],
          [2, 'succeeded', assigned.public_id, false],
          [3, 'failed', null, null],
          [4, 'succeeded', trackAssignment.public_id, true],
          [5, 'failed', null, null],
          [6, 'failed', null, null],
          [7, 'failed', null, null],
          [8, 'failed', null, null],
        ],
      );
      assert.deepEqual(
        items.map((item) => item.error?.code ?? null),
        [null, null, null, 'archived', null, 'not_found', 'validation_error', 'validation_error', 'validation_error'],
      );
      assert.match(items[7].error.message, /^content_item_id: /);
      assert.match(items[8].error.message, /^due_date: /);
    });

    it('limits a request to 200 items', async () => {
      const item = { user_id: '00000000-0000-4000-8000-000000000000', content_item_id: '00000000-0000-4000-8000-000000000000' };
      expectFieldError(
        await api.post('/api/v2/assignments/bulk/', { assignments: Array.from({ length: 201 }, () => item) }),
        'assignments',
      );
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
    const submitted = await api.post('/api/v2/users/bulk/', {
      users: Array.from({ length: 500 }, (_, i) => ({ email: uniqueEmail(`busy${i}`), name: 'Busy' })),
    });
    const started = performance.now();
    const response = await api.get('/api/v2/users/?page_size=1');
    assert.equal(response.status, 200);
    assert.ok(performance.now() - started < 1000, 'a request is not held until the job finishes');
    await waitForJob(api, `/api/v2/users/bulk/${submitted.body.id}/`);
  });
});

describe('items of a job still processing', () => {
  it('lists the items done so far, in whole chunks, and the rest once they are done', async () => {
    // small chunks with a pause between them, so the job is seen part-way
    const server = await startServer({ args: ['--job-chunk-size', '5', '--job-pause-ms', '50'] });
    try {
      const submitted = await server.api.post('/api/v2/users/bulk/', {
        users: Array.from({ length: 100 }, (_, i) => ({ email: uniqueEmail(`partial${i}`), name: 'Partial' })),
      });
      assert.equal(submitted.status, 202, submitted.text);
      const path = `/api/v2/users/bulk/${submitted.body.id}/`;
      let partial: any[] = [];
      const deadline = Date.now() + 20_000;
      while (partial.length === 0 || partial.length === 100) {
        assert.ok(Date.now() < deadline, 'the job was never seen part-way');
        partial = await jobItems(server.api, path);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(partial.length % 5, 0, 'a chunk commits whole');
      assert.deepEqual(
        partial.map((item) => item.index),
        [...Array(partial.length).keys()],
      );
      assert.ok(partial.every((item) => item.status === 'succeeded' && item.created === true));
      assert.ok((await server.api.get(path)).body.processed >= partial.length);

      const job = await waitForJob(server.api, path);
      assert.equal(job.succeeded, 100);
      const all = await jobItems(server.api, path);
      assert.deepEqual(all.slice(0, partial.length), partial, 'listed items do not change');
      assert.equal(all.length, 100);
    } finally {
      await server.stop();
    }
  });
});

describe('a job acts with its submitter’s current rights', () => {
  it('fails the items left once the organizer who submitted is demoted, deactivated and loses the token', async () => {
    // two items per chunk and a pause between chunks: the demotion lands while most items are left
    const server = await startServer({ args: ['--job-chunk-size', '2', '--job-pause-ms', '200'] });
    try {
      const admin = server.api;
      const organizer = await userWithToken(server, 'organizer');
      const learner = (await admin.post('/api/v2/users/', { email: uniqueEmail('learner'), name: 'Learner' })).body;
      const articles = [];
      for (let i = 0; i < 40; i++) articles.push((await admin.post('/api/v2/articles/', { name: `Bulk ${i}` })).body);
      const submitted = await organizer.api.post('/api/v2/assignments/bulk/', {
        assignments: articles.map((article) => ({ user_id: learner.public_id, content_item_id: article.public_id })),
      });
      assert.equal(submitted.status, 202, submitted.text);
      const path = `/api/v2/assignments/bulk/${submitted.body.id}/`;

      let seen: any;
      const deadline = Date.now() + 20_000;
      do {
        seen = (await admin.get(path)).body;
        assert.ok(Date.now() < deadline, 'the job never started');
      } while (seen.processed === 0);
      assert.equal(seen.status, 'processing', 'the job is still running when its submitter loses the right');

      const patched = await admin.patch(`/api/v2/users/${organizer.user.public_id}/`, { role: 'user', is_active: false });
      assert.equal(patched.status, 200, patched.text);
      // deactivation revokes the user's tokens (docs/identity.md), the one the job runs under too
      const live = (await admin.get(`/api/v2/api-tokens/?user=${organizer.user.public_id}`)).body.data;
      assert.deepEqual(live, [], 'deactivating the submitter revoked its token');

      const job = await waitForJob(admin, path);
      assert.equal(job.status, 'completed');
      assert.ok(job.failed > 0 && job.succeeded < 40, `items after the change must not apply (${job.succeeded} did)`);
      const items = await jobItems(admin, path);
      assert.equal(items.length, 40);
      const firstRefused = items.findIndex((item) => item.status === 'failed');
      assert.equal(firstRefused, job.succeeded, 'the applied items are the ones before the change');
      assert.ok(items.slice(firstRefused).every((item) => item.status === 'failed' && item.error.code === 'forbidden'));
      const assigned = (await admin.get(`/api/v2/assignments/?user=${learner.public_id}&page_size=100`)).body.meta.total_count;
      assert.equal(assigned, job.succeeded, 'a refused item wrote nothing');
    } finally {
      await server.stop();
    }
  });
});

describe('bulk job crash recovery', () => {
  it('resumes a job after SIGKILL from its first unprocessed item, never counting an item twice', async () => {
    // slow chunks, so the kill lands in the middle of the job; polling all along needs more than
    // the default rate limit, which servers sharing PostgreSQL keep counting across the restart
    const args = ['--rate-limit', '100000'];
    const first = await startServer({ args: [...args, '--job-chunk-size', '5', '--job-pause-ms', '15'] });
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

    const second = await startServer({ dbFile: first.dbFile, args });
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
        for (const row of (await api.get(`/api/v2/users/?search=${prefix}&page_size=100&page=${page}&ordering=email`)).body.data)
          emails.add(row.email);
      }
      const expected = users.filter((_, i) => i % 50 !== 7).map((user) => user.email);
      assert.deepEqual([...emails].sort(), expected.sort());
    } finally {
      await second.stop();
    }
  });
});
