import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { expectError, uniqueEmail, userWithToken, type ApiClient, useServer } from '../helpers/server.ts';

const b = (count: number, percentage: number) => ({ count, percentage });
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const zeroCompletion = { total: 0, completed: b(0, 0), in_progress: b(0, 0), not_started: b(0, 0), dropped: b(0, 0), exempted: b(0, 0) };

/**
 * One server with a known population (a fresh database, so unfiltered totals are exact):
 *
 *   assignment  state         due       rating  text     is_success
 *   u1·c1       completed               5       "Great"  true
 *   u1·c2       in_progress   past      4
 *   u2·c1       not_started   past
 *   u2·c2       dropped                 1       "Bad"             (dropped: only in completion)
 *   u3·c1       exempted                3
 *   u3·c2       completed                                false
 *
 * u1 and u2 are members of group G; u3 is not.
 */
describe('insights', () => {
  const server = useServer();
  let api: ApiClient;
  let u1: any, u2: any, u3: any, c1: any, c2: any, group: any;

  before(async () => {
    api = server.api;
    const user = async () => (await api.post('/api/v2/users/', { email: uniqueEmail(), name: 'Insightful' })).body;
    [u1, u2, u3] = [await user(), await user(), await user()];
    c1 = (await api.post('/api/v2/articles/', { name: 'C1' })).body;
    c2 = (await api.post('/api/v2/courses/', { name: 'C2' })).body;
    group = (await api.post('/api/v2/groups/', { name: 'G' })).body;
    assert.equal((await api.post(`/api/v2/groups/${group.public_id}/members/`, { member_ids: [u1.public_id, u2.public_id] })).status, 200);

    const assign = async (user: any, content: any, due?: string) =>
      (
        await api.post('/api/v2/assignments/', {
          user_id: user.public_id,
          content_item_id: content.public_id,
          ...(due ? { due_date: due } : {}),
        })
      ).body;
    const act = async (a: any, action: string, body?: unknown) => {
      const response = await api.post(`/api/v2/assignments/${a.public_id}/${action}/`, body);
      assert.equal(response.status, 200, response.text);
    };
    const past = isoDay(-2);
    const a11 = await assign(u1, c1);
    await act(a11, 'progress', { progress: 1, is_success: true });
    await act(a11, 'feedback', { rating: 5, text: 'Great' });
    const a12 = await assign(u1, c2, past);
    await act(a12, 'progress', { progress: 0.5 });
    await act(a12, 'feedback', { rating: 4 });
    await assign(u2, c1, past);
    const a22 = await assign(u2, c2);
    await act(a22, 'feedback', { rating: 1, text: 'Bad' });
    await act(a22, 'drop');
    const a31 = await assign(u3, c1);
    await act(a31, 'exempt');
    await act(a31, 'feedback', { rating: 3, text: '' });
    const a32 = await assign(u3, c2);
    await act(a32, 'progress', { progress: 1, is_success: false });
  });

  const insight = async (kind: string, query = '') => {
    const response = await api.get(`/api/v2/insights/assignments/${kind}/${query ? `?${query}` : ''}`);
    assert.equal(response.status, 200, response.text);
    return response.body;
  };

  it('completion: all five buckets with integer percentages, over every state', async () => {
    assert.deepEqual(await insight('completion'), {
      total: 6,
      completed: b(2, 33),
      in_progress: b(1, 17),
      not_started: b(1, 17),
      dropped: b(1, 17),
      exempted: b(1, 17),
    });
    assert.deepEqual(await insight('completion', `content_item_id=${c1.public_id}`), {
      total: 3,
      completed: b(1, 33),
      in_progress: b(0, 0),
      not_started: b(1, 33),
      dropped: b(0, 0),
      exempted: b(1, 33),
    });
    assert.deepEqual(await insight('completion', `user_id=${u3.public_id}`), {
      total: 2,
      completed: b(1, 50),
      in_progress: b(0, 0),
      not_started: b(0, 0),
      dropped: b(0, 0),
      exempted: b(1, 50),
    });
    assert.deepEqual(await insight('completion', `group_id=${group.public_id}`), {
      total: 4,
      completed: b(1, 25),
      in_progress: b(1, 25),
      not_started: b(1, 25),
      dropped: b(1, 25),
      exempted: b(0, 0),
    });
    assert.deepEqual(await insight('completion', `group_id=${group.public_id}&content_item_id=${c2.public_id}`), {
      total: 2,
      completed: b(0, 0),
      in_progress: b(1, 50),
      not_started: b(0, 0),
      dropped: b(1, 50),
      exempted: b(0, 0),
    });
    assert.equal((await insight('completion', `created__gte=${isoDay(0)}&created__lte=${isoDay(0)}`)).total, 6);
    assert.deepEqual(await insight('completion', `created__gte=${isoDay(1)}`), zeroCompletion);
    assert.deepEqual(await insight('completion', `created__lte=${isoDay(-1)}`), zeroCompletion);
    assert.deepEqual(await insight('completion', 'content_item_id=00000000-0000-4000-8000-000000000000'), zeroCompletion);
  });

  it('overdue: outstanding assignments past their due date, split by state', async () => {
    assert.deepEqual(await insight('overdue'), { total: 2, not_started: b(1, 50), in_progress: b(1, 50) });
    assert.deepEqual(await insight('overdue', `content_item_id=${c2.public_id}`), {
      total: 1,
      not_started: b(0, 0),
      in_progress: b(1, 100),
    });
    assert.deepEqual(await insight('overdue', `group_id=${group.public_id}`), { total: 2, not_started: b(1, 50), in_progress: b(1, 50) });
    assert.deepEqual(await insight('overdue', `user_id=${u3.public_id}`), { total: 0, not_started: b(0, 0), in_progress: b(0, 0) });
    assert.deepEqual(await insight('overdue', `created__gte=${isoDay(1)}`), { total: 0, not_started: b(0, 0), in_progress: b(0, 0) });
  });

  it('feedback: ratings and non-empty reviews, dropped assignments excluded', async () => {
    assert.deepEqual(await insight('feedback'), { ratings_count: 3, reviews_count: 1 });
    assert.deepEqual(await insight('feedback', `content_item_id=${c1.public_id}`), { ratings_count: 2, reviews_count: 1 });
    assert.deepEqual(await insight('feedback', `group_id=${group.public_id}`), { ratings_count: 2, reviews_count: 1 });
    assert.deepEqual(await insight('feedback', `user_id=${u2.public_id}`), { ratings_count: 0, reviews_count: 0 });
  });

  it('ratings: the 1–5 distribution and the average, dropped assignments excluded', async () => {
    assert.deepEqual(await insight('ratings'), {
      total: 3,
      average: 4,
      distribution: { '1': b(0, 0), '2': b(0, 0), '3': b(1, 33), '4': b(1, 33), '5': b(1, 33) },
    });
    assert.deepEqual(await insight('ratings', `group_id=${group.public_id}`), {
      total: 2,
      average: 4.5,
      distribution: { '1': b(0, 0), '2': b(0, 0), '3': b(0, 0), '4': b(1, 50), '5': b(1, 50) },
    });
    assert.deepEqual(await insight('ratings', `content_item_id=${c2.public_id}`), {
      total: 1,
      average: 4,
      distribution: { '1': b(0, 0), '2': b(0, 0), '3': b(0, 0), '4': b(1, 100), '5': b(0, 0) },
    });
    assert.equal((await insight('ratings', `user_id=${u2.public_id}`)).average, null);
  });

  it('pass-fail: completed assignments with a known outcome', async () => {
    assert.deepEqual(await insight('pass-fail'), { total: 2, passed: b(1, 50), failed: b(1, 50) });
    assert.deepEqual(await insight('pass-fail', `user_id=${u1.public_id}`), { total: 1, passed: b(1, 100), failed: b(0, 0) });
    assert.deepEqual(await insight('pass-fail', `content_item_id=${c2.public_id}`), { total: 1, passed: b(0, 0), failed: b(1, 100) });
    assert.deepEqual(await insight('pass-fail', `group_id=${group.public_id}`), { total: 1, passed: b(1, 100), failed: b(0, 0) });
  });

  it('weekly-completions: the last twelve ISO weeks, both completions in the current one', async () => {
    const all = await insight('weekly-completions');
    assert.equal(all.weeks.length, 12);
    const monday = new Date();
    monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
    assert.deepEqual(all.weeks.at(-1), { week_start: monday.toISOString().slice(0, 10), count: 2 });
    assert.equal(all.total, 2);
    assert.ok(all.weeks.slice(0, -1).every((week: any) => week.count === 0));
    assert.equal((await insight('weekly-completions', `group_id=${group.public_id}`)).total, 1, "u1's completion, not u3's");
    assert.equal((await insight('weekly-completions', `content_item_id=${c2.public_id}`)).total, 1);
    expectError(await api.get('/api/v2/insights/assignments/weekly-completions/?user_id=1'), 400, 'bad_request');
  });

  it('rejects malformed filters with 400 and is open to organizers, not learners', async () => {
    for (const bad of ['content_item_id=x', 'user_id=1', 'group_id=abc', 'created__gte=later']) {
      expectError(await api.get(`/api/v2/insights/assignments/completion/?${bad}`), 400, 'bad_request');
    }
    const organizer = await userWithToken(server, 'organizer');
    assert.equal((await organizer.api.get('/api/v2/insights/assignments/ratings/')).status, 200);
    const learner = await userWithToken(server, 'user');
    expectError(await learner.api.get('/api/v2/insights/assignments/pass-fail/'), 403, 'forbidden');
  });
});
