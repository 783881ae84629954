import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { lastSequence, outboxAfter } from '../helpers/outbox.ts';
import { expectError, expectFieldError, uniqueEmail, userWithToken, type ApiClient, useServer } from '../helpers/server.ts';

const assignmentKeys = [
  'public_id',
  'user',
  'content_item',
  'state',
  'progress',
  'score',
  'is_success',
  'due_date',
  'is_overdue',
  'started_at',
  'completed_datetime',
  'dropped_at',
  'exempted_at',
  'expires_at',
  'feedback_rating',
  'feedback_text',
  'drop_reason',
  'attempt',
  'is_enrollment_managed',
  'created',
  'modified',
];

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('assignments', () => {
  const server = useServer();
  let api: ApiClient;
  before(async () => {
    api = server.api;
  });

  const newUser = async () => {
    const response = await api.post('/api/v2/users/', { email: uniqueEmail('learner'), name: 'Learner' });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };
  const newContent = async (path = 'articles', fields: Record<string, unknown> = {}) => {
    const response = await api.post(`/api/v2/${path}/`, { name: `${path} item`, ...fields });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };
  const assign = async (user: any, content: any, extra: Record<string, unknown> = {}, client = api) => {
    const response = await client.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: content.public_id, ...extra });
    assert.ok(response.status === 201 || response.status === 200, response.text);
    return response.body;
  };
  const fresh = async (extra: Record<string, unknown> = {}) => assign(await newUser(), await newContent(), extra);
  const post = (assignment: any, action: string, body?: unknown, client = api) =>
    client.post(`/api/v2/assignments/${assignment.public_id}/${action}/`, body);
  const listIds = async (query: string, client = api) => {
    const response = await client.get(`/api/v2/assignments/?${query}&page_size=100`);
    assert.equal(response.status, 200, response.text);
    return response.body.data.map((a: any) => a.public_id).sort();
  };
  const ids = (...items: any[]) => items.map((item) => item.public_id).sort();

  describe('create-or-get', () => {
    it('creates a not_started assignment (201) in the documented shape, and returns it again (200)', async () => {
      const user = await newUser();
      const content = await newContent();
      const created = await api.post('/api/v2/assignments/', {
        user_id: user.public_id,
        content_item_id: content.public_id,
        due_date: '2999-01-31',
        expires_at: '2999-02-01T10:00:00+02:00',
      });
      assert.equal(created.status, 201, created.text);
      assert.ok(created.headers.get('etag'));
      const a = created.body;
      assert.deepEqual(Object.keys(a), assignmentKeys);
      assert.deepEqual(a.user, { public_id: user.public_id, name: user.name, email: user.email });
      assert.deepEqual(a.content_item, { public_id: content.public_id, name: content.name, content_type: 'article' });
      assert.equal(a.state, 'not_started');
      assert.equal(a.progress, 0);
      assert.equal(a.due_date, '2999-01-31');
      assert.equal(a.expires_at, '2999-02-01T08:00:00.000Z');
      assert.equal(a.is_overdue, false);
      assert.equal(a.attempt, 1);
      assert.equal(a.is_enrollment_managed, false);

      const again = await api.post('/api/v2/assignments/', {
        user_id: user.public_id,
        content_item_id: content.public_id,
        due_date: '2000-01-01',
      });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body.public_id, a.public_id);
      assert.equal(again.body.due_date, '2999-01-31', 'an existing pair is returned unchanged');

      assert.equal((await post(a, 'complete')).status, 200);
      const afterCompletion = await api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: content.public_id });
      assert.equal(afterCompletion.status, 200);
      assert.equal(afterCompletion.body.state, 'completed');

      const item = (await api.get(`/api/v2/content-items/${content.public_id}/`)).body;
      assert.equal(item.total_assignments, 1);
      assert.equal(item.completed_assignments_count, 1);
    });

    it('validates the body: 422 on fields, unknown fields and an unknown user; 404 for unknown content', async () => {
      const user = await newUser();
      const content = await newContent();
      expectFieldError(await api.post('/api/v2/assignments/', { content_item_id: content.public_id }), 'user_id');
      expectFieldError(await api.post('/api/v2/assignments/', { user_id: 'nope', content_item_id: content.public_id }), 'user_id');
      expectFieldError(
        await api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: content.public_id, due_date: '2025-02-30' }),
        'due_date',
      );
      expectFieldError(
        await api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: content.public_id, expires_at: 'soon' }),
        'expires_at',
      );
      expectFieldError(
        await api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: content.public_id, state: 'completed' }),
        'state',
      );
      expectFieldError(
        await api.post('/api/v2/assignments/', { user_id: '00000000-0000-4000-8000-000000000000', content_item_id: content.public_id }),
        'user_id',
      );
      expectError(
        await api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: '00000000-0000-4000-8000-000000000000' }),
        404,
        'not_found',
      );
    });

    it('refuses archived content with 409 archived, but still returns an existing pair', async () => {
      const user = await newUser();
      const content = await newContent();
      const other = await newUser();
      const existing = await assign(other, content);
      assert.equal((await api.post('/api/v2/content-items/bulk/archive/', { items: [{ public_id: content.public_id }] })).status, 200);
      expectError(await api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: content.public_id }), 409, 'archived');
      const again = await api.post('/api/v2/assignments/', { user_id: other.public_id, content_item_id: content.public_id });
      assert.equal(again.status, 200);
      assert.equal(again.body.public_id, existing.public_id);
    });

    it('assigning a track creates-or-gets its items, through nested tracks but not into collections', async () => {
      const article = await newContent('articles');
      const video = await newContent('videos');
      const course = await newContent('courses');
      const archived = await newContent('guides');
      await api.post('/api/v2/content-items/bulk/archive/', { items: [{ public_id: archived.public_id }] });
      const collection = await newContent('collections', { items: [course.public_id] });
      const inner = await newContent('scheduled-tracks', { items: [video.public_id] });
      const track = await newContent('tracks', { items: [article.public_id, inner.public_id, collection.public_id, archived.public_id] });
      const user = await newUser();

      const first = await api.post('/api/v2/assignments/', {
        user_id: user.public_id,
        content_item_id: track.public_id,
        due_date: '2999-03-01',
      });
      assert.equal(first.status, 201, first.text);
      const mine = (await api.get(`/api/v2/assignments/?user=${user.public_id}&page_size=100`)).body.data;
      assert.deepEqual(mine.map((a: any) => a.content_item.public_id).sort(), ids(track, article, inner, video, collection));
      assert.ok(
        mine.every((a: any) => a.due_date === '2999-03-01'),
        'items take the due date of the track assignment',
      );

      // an item added later is picked up by assigning the track again (200)
      const late = await newContent('links', { url: 'https://example.com/late' });
      await api.patch(`/api/v2/tracks/${track.public_id}/`, { items: [article.public_id, late.public_id] });
      const again = await api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: track.public_id });
      assert.equal(again.status, 200);
      assert.equal(again.body.public_id, first.body.public_id);
      assert.equal((await api.get(`/api/v2/assignments/?user=${user.public_id}`)).body.meta.total_count, 6);
    });
  });

  describe('tracks follow their items', () => {
    const mine = async (user: any, content: any) =>
      (await api.get(`/api/v2/assignments/?user=${user.public_id}&content_item=${content.public_id}`)).body.data[0];

    it('completes a track when the learner completes its items, and reopens it when one is undone', async () => {
      const first = await newContent('articles');
      const second = await newContent('videos');
      const track = await newContent('tracks', { items: [first.public_id, second.public_id] });
      const learner = await userWithToken(server, 'user');
      const assigned = await assign(learner.user, track, {}, learner.api);
      const from = await lastSequence(server.dbFile);

      const progressed = await post(await mine(learner.user, first), 'progress', { progress: 1 }, learner.api);
      assert.equal(progressed.body.state, 'completed', progressed.text);
      let state = await mine(learner.user, track);
      assert.equal(state.state, 'in_progress');
      assert.equal(state.progress, 0.5);
      assert.ok(state.started_at);

      assert.equal((await post(await mine(learner.user, second), 'progress', { progress: 1 }, learner.api)).status, 200);
      state = await mine(learner.user, track);
      assert.equal(state.public_id, assigned.public_id);
      assert.equal(state.state, 'completed');
      assert.equal(state.progress, 1);
      assert.ok(state.completed_datetime);
      const completed = (await outboxAfter(server.dbFile, from))
        .filter((e) => e.type === 'assignment.completed')
        .map((e) => e.payload.data.object);
      assert.deepEqual(
        completed.map((a: any) => a.content_item.public_id),
        [first.public_id, second.public_id, track.public_id],
      );
      assert.deepEqual(completed.at(-1), state, 'the event carries the track assignment as it reads');

      assert.equal((await post(await mine(learner.user, second), 'undo-complete')).status, 200);
      state = await mine(learner.user, track);
      assert.equal(state.state, 'in_progress');
      assert.equal(state.progress, 0.5);
      assert.equal(state.completed_datetime, null);
      assert.ok(
        (await outboxAfter(server.dbFile, from)).some(
          (e) => e.type === 'assignment.completion_undone' && e.payload.data.object.public_id === state.public_id,
        ),
      );
    });

    it('completes a track holding an event when the learner is checked in, and reopens it when that is undone', async () => {
      const article = await newContent('articles');
      const event = await newContent('events', { is_local: true, timeslots: [{ starts_at: '2026-06-01T09:00:00Z', duration: 'PT2H' }] });
      const track = await newContent('tracks', { items: [article.public_id, event.public_id] });
      const user = await newUser();
      await assign(user, track);
      await post(await mine(user, article), 'complete');
      const enrollment = await api.post('/api/v2/enrollments/', {
        user_id: user.public_id,
        event_id: event.public_id,
        attendance_method: 'in_person',
      });
      assert.equal(enrollment.status, 201, enrollment.text);
      assert.equal((await mine(user, track)).progress, 0.5);
      assert.equal((await api.post(`/api/v2/enrollments/${enrollment.body.public_id}/checkin/`)).status, 200);
      assert.equal((await mine(user, track)).state, 'completed');
      assert.equal((await api.post(`/api/v2/enrollments/${enrollment.body.public_id}/undo-checkin/`)).status, 200);
      const reopened = await mine(user, track);
      assert.equal(`${reopened.state} ${reopened.progress}`, 'in_progress 0.5', 'undoing the check-in reopens the track');
    });
  });

  describe('role user', () => {
    it('may self-assign only self-assignable content it can see, and only to itself', async () => {
      const learner = await userWithToken(server, 'user');
      const other = await newUser();
      const open = await newContent('articles');
      const closed = await newContent('articles', { is_self_assignable: false });
      const hidden = await newContent('articles', { is_hidden: true });

      const mine = await learner.api.post('/api/v2/assignments/', { user_id: learner.user.public_id, content_item_id: open.public_id });
      assert.equal(mine.status, 201, mine.text);
      expectError(
        await learner.api.post('/api/v2/assignments/', { user_id: other.public_id, content_item_id: open.public_id }),
        403,
        'forbidden',
      );
      expectError(
        await learner.api.post('/api/v2/assignments/', { user_id: learner.user.public_id, content_item_id: closed.public_id }),
        403,
        'forbidden',
      );
      expectError(
        await learner.api.post('/api/v2/assignments/', { user_id: learner.user.public_id, content_item_id: hidden.public_id }),
        404,
        'not_found',
      );

      // assigned by an admin, a non-self-assignable item is the learner's all the same
      const given = await assign(learner.user, closed);
      const again = await learner.api.post('/api/v2/assignments/', { user_id: learner.user.public_id, content_item_id: closed.public_id });
      assert.equal(again.status, 200);
      assert.equal(again.body.public_id, given.public_id);
    });

    it('sees and acts on its own assignments only; may drop, report progress and feedback, nothing else', async () => {
      const learner = await userWithToken(server, 'user');
      const content = await newContent();
      const own = await assign(learner.user, content);
      const someoneElses = await fresh();

      assert.deepEqual(await listIds('', learner.api), [own.public_id]);
      assert.deepEqual(await listIds(`user=${someoneElses.user.public_id}`, learner.api), []);
      expectError(await learner.api.get(`/api/v2/assignments/${someoneElses.public_id}/`), 404, 'not_found');
      expectError(await post(someoneElses, 'drop', undefined, learner.api), 404, 'not_found');

      assert.equal((await learner.api.get(`/api/v2/assignments/${own.public_id}/`)).status, 200);
      for (const action of ['complete', 'exempt', 'undo-complete', 'undo-exempt']) {
        expectError(await post(own, action, undefined, learner.api), 403, 'forbidden');
      }
      expectError(await learner.api.patch(`/api/v2/assignments/${own.public_id}/`, { due_date: null }), 403, 'forbidden');
      expectError(await learner.api.delete(`/api/v2/assignments/${own.public_id}/`), 403, 'forbidden');

      assert.equal((await post(own, 'progress', { progress: 0.25 }, learner.api)).body.state, 'in_progress');
      assert.equal((await post(own, 'feedback', { rating: 4 }, learner.api)).body.feedback_rating, 4);
      assert.equal((await post(own, 'drop', { reason: 'no time' }, learner.api)).body.state, 'dropped');
      expectError(await learner.api.get('/api/v2/insights/assignments/completion/'), 403, 'forbidden');
    });

    it('an organizer sees and manages everyone’s assignments', async () => {
      const organizer = await userWithToken(server, 'organizer');
      const a = await fresh();
      assert.equal((await organizer.api.get(`/api/v2/assignments/${a.public_id}/`)).status, 200);
      assert.equal((await post(a, 'exempt', undefined, organizer.api)).body.state, 'exempted');
    });
  });

  describe('state machine over HTTP', () => {
    // the spec's table, its 409 table and docs/assignments.md, written out again as the client sees them
    const table: Record<string, Record<string, string>> = {
      not_started: {
        complete: 'completed',
        drop: 'dropped',
        exempt: 'exempted',
        'undo-complete': '409 not_completed',
        'undo-exempt': '409 not_exempted',
      },
      in_progress: {
        complete: 'completed',
        drop: 'dropped',
        exempt: 'exempted',
        'undo-complete': '409 not_completed',
        'undo-exempt': '409 not_exempted',
      },
      completed: {
        complete: '409 already_completed',
        drop: '409 already_completed',
        exempt: '409 not_outstanding',
        'undo-complete': 'in_progress',
        'undo-exempt': '409 not_exempted',
      },
      dropped: {
        complete: '409 dropped',
        drop: '409 dropped',
        exempt: '409 not_outstanding',
        'undo-complete': '409 not_completed',
        'undo-exempt': '409 not_exempted',
      },
      exempted: {
        complete: 'completed',
        drop: 'dropped',
        exempt: '409 not_outstanding',
        'undo-complete': '409 not_completed',
        'undo-exempt': 'in_progress',
      },
    };
    const reach: Record<string, (a: any) => Promise<void>> = {
      not_started: async () => {},
      in_progress: async (a) => void assert.equal((await post(a, 'progress', { progress: 0.5 })).status, 200),
      completed: async (a) => void assert.equal((await post(a, 'complete')).status, 200),
      dropped: async (a) => void assert.equal((await post(a, 'drop')).status, 200),
      exempted: async (a) => void assert.equal((await post(a, 'exempt')).status, 200),
    };
    const stampOf: Record<string, string> = { completed: 'completed_datetime', dropped: 'dropped_at', exempted: 'exempted_at' };

    it('walks every (state, action) pair: the next state with its timestamp, or the 409 code', async () => {
      const content = await newContent();
      for (const [state, row] of Object.entries(table)) {
        for (const [action, outcome] of Object.entries(row)) {
          const a = await assign(await newUser(), content);
          await reach[state]!(a);
          const before = (await api.get(`/api/v2/assignments/${a.public_id}/`)).body;
          assert.equal(before.state, state);
          const response = await post(a, action);
          if (outcome.startsWith('409 ')) {
            expectError(response, 409, outcome.slice(4));
            assert.deepEqual((await api.get(`/api/v2/assignments/${a.public_id}/`)).body, before, `${state} ${action} changed nothing`);
            continue;
          }
          assert.equal(response.status, 200, `${state} ${action}: ${response.text}`);
          assert.equal(response.body.state, outcome, `${state} ${action}`);
          const stamp = stampOf[outcome];
          if (stamp) assert.ok(response.body[stamp], `${state} ${action} sets ${stamp}`);
          for (const [other, field] of Object.entries(stampOf)) {
            if (other !== outcome) assert.equal(response.body[field], null, `${state} ${action} leaves ${field} null`);
          }
          if (outcome === 'completed') assert.equal(response.body.progress, 1);
        }
      }
    });

    it('drop stores its reason; undo-complete restores the earlier progress and starts a new attempt', async () => {
      const a = await fresh();
      await post(a, 'progress', { progress: 0.4 });
      const completed = (await post(a, 'complete')).body;
      assert.equal(completed.progress, 1);
      const reopened = (await post(a, 'undo-complete')).body;
      assert.equal(reopened.state, 'in_progress');
      assert.equal(reopened.progress, 0.4);
      assert.equal(reopened.completed_datetime, null);
      assert.equal(reopened.attempt, 2);

      const dropped = (await post(a, 'drop', { reason: 'Changed role' })).body;
      assert.equal(dropped.drop_reason, 'Changed role');
      expectFieldError(await post(await fresh(), 'drop', { reason: 'x'.repeat(1001) }), 'reason');
      expectFieldError(await post(await fresh(), 'complete', { reason: 'nope' }), 'reason');
    });

    it('progress starts, auto-completes completable content, and stores score and is_success', async () => {
      const a = await fresh();
      const started = (await post(a, 'progress', { progress: 0.3 })).body;
      assert.equal(started.state, 'in_progress');
      assert.ok(started.started_at);
      const graded = (await post(a, 'progress', { progress: 1, score: 87.5, is_success: true })).body;
      assert.equal(graded.state, 'completed');
      assert.equal(graded.score, 87.5);
      assert.equal(graded.is_success, true);
      assert.equal(graded.started_at, started.started_at, 'started_at records the first engagement');
      expectError(await post(a, 'progress', { progress: 0.5 }), 409, 'already_completed');

      const open = await assign(await newUser(), await newContent('articles', { is_completable: false }));
      const full = (await post(open, 'progress', { progress: 1 })).body;
      assert.equal(full.state, 'in_progress');
      assert.equal(full.progress, 1);

      expectFieldError(await post(open, 'progress', { progress: 1.5 }), 'progress');
      expectFieldError(await post(open, 'progress', {}), 'progress');
      const dropped = await fresh();
      await post(dropped, 'drop');
      expectError(await post(dropped, 'progress', { progress: 0.5 }), 409, 'dropped');
    });

    it('feedback stores a 1–5 rating and review text, and feeds the content’s average rating', async () => {
      const content = await newContent();
      const a = await assign(await newUser(), content);
      const b = await assign(await newUser(), content);
      const rated = (await post(a, 'feedback', { rating: 5, text: 'Great' })).body;
      assert.equal(rated.feedback_rating, 5);
      assert.equal(rated.feedback_text, 'Great');
      await post(b, 'feedback', { rating: 2 });
      assert.equal((await api.get(`/api/v2/content-items/${content.public_id}/`)).body.avg_feedback_rating, 3.5);
      await post(b, 'drop');
      assert.equal((await api.get(`/api/v2/content-items/${content.public_id}/`)).body.avg_feedback_rating, 5, 'dropped ratings fall out');
      expectFieldError(await post(a, 'feedback', { rating: 6 }), 'rating');
      expectFieldError(await post(a, 'feedback', { rating: 2.5 }), 'rating');
    });
  });

  describe('read, PATCH, conditional requests, DELETE', () => {
    it('PATCH sets and clears due_date and expires_at; only supplied fields change', async () => {
      const a = await fresh({ due_date: '2999-01-01', expires_at: '2999-01-02T00:00:00Z' });
      const patched = await api.patch(`/api/v2/assignments/${a.public_id}/`, { due_date: '2998-05-05' });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.body.due_date, '2998-05-05');
      assert.equal(patched.body.expires_at, '2999-01-02T00:00:00.000Z');
      const cleared = (await api.patch(`/api/v2/assignments/${a.public_id}/`, { due_date: null, expires_at: null })).body;
      assert.equal(cleared.due_date, null);
      assert.equal(cleared.expires_at, null);
      expectFieldError(await api.patch(`/api/v2/assignments/${a.public_id}/`, { state: 'completed' }), 'state');
      expectFieldError(await api.patch(`/api/v2/assignments/${a.public_id}/`, { due_date: 'tomorrow' }), 'due_date');
      expectError(await api.patch('/api/v2/assignments/00000000-0000-4000-8000-000000000000/', {}), 404, 'not_found');
    });

    it('computes is_overdue from the due date and the state', async () => {
      const late = await fresh({ due_date: isoDay(-1) });
      assert.equal(late.is_overdue, true);
      assert.equal((await fresh({ due_date: isoDay(0) })).is_overdue, false, 'due today is not overdue yet');
      assert.equal((await post(late, 'complete')).body.is_overdue, false);
    });

    it('GET sends ETag and Last-Modified, and answers 304 to If-None-Match and If-Modified-Since', async () => {
      const a = await fresh();
      const got = await api.get(`/api/v2/assignments/${a.public_id}/`);
      const etag = got.headers.get('etag')!;
      const lastModified = got.headers.get('last-modified')!;
      assert.ok(etag && lastModified);
      assert.equal(new Date(lastModified).getTime(), Math.floor(Date.parse(a.modified) / 1000) * 1000);

      const notModified = await api.get(`/api/v2/assignments/${a.public_id}/`, { headers: { 'if-none-match': etag } });
      assert.equal(notModified.status, 304);
      assert.equal(notModified.text, '');
      assert.equal((await api.get(`/api/v2/assignments/${a.public_id}/`, { headers: { 'if-modified-since': lastModified } })).status, 304);
      const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
      assert.equal((await api.get(`/api/v2/assignments/${a.public_id}/`, { headers: { 'if-modified-since': earlier } })).status, 200);
      assert.equal((await api.get(`/api/v2/assignments/${a.public_id}/`, { headers: { 'if-modified-since': 'garbage' } })).status, 200);
      // If-None-Match wins over If-Modified-Since
      assert.equal(
        (
          await api.get(`/api/v2/assignments/${a.public_id}/`, {
            headers: { 'if-none-match': '"other"', 'if-modified-since': lastModified },
          })
        ).status,
        200,
      );

      // HTTP dates have whole seconds: write until the representation's second has moved on
      let progress = 0.1;
      do {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await post(a, 'progress', { progress: (progress = Math.round((progress + 0.01) * 100) / 100) });
      } while ((await api.get(`/api/v2/assignments/${a.public_id}/`)).headers.get('last-modified') === lastModified);
      const changed = await api.get(`/api/v2/assignments/${a.public_id}/`, {
        headers: { 'if-none-match': etag, 'if-modified-since': lastModified },
      });
      assert.equal(changed.status, 200);
      assert.equal((await api.get(`/api/v2/assignments/${a.public_id}/`, { headers: { 'if-modified-since': lastModified } })).status, 200);
    });

    it('a stale If-Match is 412 on PATCH, every action, progress, feedback and DELETE; the current one passes', async () => {
      const a = await fresh();
      const etag = (await api.get(`/api/v2/assignments/${a.public_id}/`)).headers.get('etag')!;
      const stale = { headers: { 'if-match': '"stale"' } };
      expectError(await api.patch(`/api/v2/assignments/${a.public_id}/`, { due_date: null }, stale), 412, 'precondition_failed');
      for (const action of ['complete', 'drop', 'exempt', 'undo-complete', 'undo-exempt']) {
        expectError(await api.post(`/api/v2/assignments/${a.public_id}/${action}/`, undefined, stale), 412, 'precondition_failed');
      }
      expectError(await api.post(`/api/v2/assignments/${a.public_id}/progress/`, { progress: 0.2 }, stale), 412, 'precondition_failed');
      expectError(await api.post(`/api/v2/assignments/${a.public_id}/feedback/`, { rating: 3 }, stale), 412, 'precondition_failed');
      expectError(await api.delete(`/api/v2/assignments/${a.public_id}/`, undefined, stale), 412, 'precondition_failed');

      const patched = await api.patch(`/api/v2/assignments/${a.public_id}/`, { due_date: '2999-09-09' }, { headers: { 'if-match': etag } });
      assert.equal(patched.status, 200, patched.text);
      const newEtag = patched.headers.get('etag')!;
      assert.notEqual(newEtag, etag);
      expectError(
        await api.post(`/api/v2/assignments/${a.public_id}/complete/`, undefined, { headers: { 'if-match': etag } }),
        412,
        'precondition_failed',
      );
      assert.equal(
        (await api.post(`/api/v2/assignments/${a.public_id}/complete/`, undefined, { headers: { 'if-match': newEtag } })).status,
        200,
      );
    });

    it('DELETE answers 204, then 404; the pair can be assigned anew; counters follow', async () => {
      const user = await newUser();
      const content = await newContent();
      const a = await assign(user, content);
      assert.equal((await api.delete(`/api/v2/assignments/${a.public_id}/`)).status, 204);
      expectError(await api.get(`/api/v2/assignments/${a.public_id}/`), 404, 'not_found');
      expectError(await api.delete(`/api/v2/assignments/${a.public_id}/`), 404, 'not_found');
      assert.equal((await api.get(`/api/v2/content-items/${content.public_id}/`)).body.total_assignments, 0);
      const again = await api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: content.public_id });
      assert.equal(again.status, 201);
      assert.notEqual(again.body.public_id, a.public_id);
    });
  });

  describe('list filters', () => {
    it('filters by user, content_item, state, content_type, is_overdue, due_date and created ranges, and pages', async () => {
      const u1 = await newUser();
      const u2 = await newUser();
      const article = await newContent('articles');
      const video = await newContent('videos');
      const startedAt = new Date().toISOString();
      // an assignment made in the same millisecond would be created at startedAt itself, which both
      // created__gte and created__lte include: the clock moves on first (a Node 24 run met it)
      while (new Date().toISOString() === startedAt) await new Promise((resolve) => setTimeout(resolve, 1));
      const a1 = await assign(u1, article, { due_date: isoDay(-3) });
      const a2 = await assign(u1, video, { due_date: isoDay(5) });
      const b1 = await assign(u2, article, { due_date: isoDay(-1) });
      const b2 = await assign(u2, video);
      await post(a2, 'progress', { progress: 0.5 });
      await post(b1, 'complete');
      await post(b2, 'exempt');
      const scope = `content_item=${article.public_id}`;

      assert.deepEqual(await listIds(`user=${u1.public_id}`), ids(a1, a2));
      assert.deepEqual(await listIds(scope), ids(a1, b1));
      assert.deepEqual(await listIds(`user=${u2.public_id}&state=completed`), ids(b1));
      assert.deepEqual(await listIds(`user=${u2.public_id}&state=completed,exempted`), ids(b1, b2));
      assert.deepEqual(await listIds(`user=${u1.public_id}&content_type=video`), ids(a2));
      assert.deepEqual(await listIds(`user=${u1.public_id}&content_type=video,article`), ids(a1, a2));
      assert.deepEqual(await listIds(`${scope}&is_overdue=true`), ids(a1), 'b1 is completed, so not overdue');
      assert.deepEqual(await listIds(`${scope}&is_overdue=false`), ids(b1));
      assert.deepEqual(await listIds(`user=${u2.public_id}&is_overdue=false`), ids(b1, b2), 'no due date is not overdue');
      assert.deepEqual(await listIds(`user=${u1.public_id}&due_date__gte=${isoDay(0)}`), ids(a2));
      assert.deepEqual(await listIds(`user=${u1.public_id}&due_date__lte=${isoDay(-3)}`), ids(a1));
      assert.deepEqual(await listIds(`user=${u1.public_id}&due_date__gte=${isoDay(-3)}&due_date__lte=${isoDay(5)}`), ids(a1, a2));
      assert.deepEqual(await listIds(`${scope}&created__gte=${startedAt}`), ids(a1, b1));
      assert.deepEqual(await listIds(`${scope}&created__lte=${encodeURIComponent(startedAt)}`), []);
      assert.deepEqual(await listIds(`${scope}&created__gte=${isoDay(1)}`), []);
      assert.deepEqual(await listIds(`user=00000000-0000-4000-8000-000000000000`), []);

      const page1 = (await api.get(`/api/v2/assignments/?user=${u1.public_id}&page_size=1&ordering=created`)).body;
      const page2 = (await api.get(`/api/v2/assignments/?user=${u1.public_id}&page_size=1&page=2&ordering=created`)).body;
      assert.deepEqual(page1.meta, { page: 1, page_size: 1, total_count: 2 });
      assert.deepEqual([page1.data[0].public_id, page2.data[0].public_id], [a1.public_id, a2.public_id]);
      const descending = (await api.get(`/api/v2/assignments/?user=${u1.public_id}&ordering=-created`)).body.data;
      assert.deepEqual(
        descending.map((a: any) => a.public_id),
        [a2.public_id, a1.public_id],
      );
      const byDue = (await api.get(`/api/v2/assignments/?user=${u2.public_id}&ordering=due_date`)).body.data;
      assert.equal(byDue.length, 2);

      for (const bad of [
        'state=bogus',
        'is_overdue=maybe',
        'due_date__gte=2025-13-01',
        'created__lte=yesterday',
        'user=xyz',
        'content_type=podcast',
        'ordering=state',
      ]) {
        expectError(await api.get(`/api/v2/assignments/?${bad}`), 400, 'bad_request');
      }
    });
  });
});
