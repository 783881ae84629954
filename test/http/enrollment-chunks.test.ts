/**
 * A bulk enrollment job writes its chunk through one batch (docs/assignments.md, "Bulk
 * enrollments: one batch per chunk"): every item must end as it would had it been sent alone, in
 * order, to `POST /enrollments/`. The same
 * items go once through a bulk job and once one request at a time, into twin events, and each
 * item's outcome, the webhook events it recorded, the email notifications its user is owed and
 * the wait list's order are compared.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jobItems, waitForJob } from '../helpers/bulk-jobs.ts';
import { outboxAfter, lastSequence } from '../helpers/outbox.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { uniqueEmail, useServer } from '../helpers/server.ts';

/** [user, event, method, accept_waitlist]: a chunk mixing every outcome */
const ITEMS: Array<[number, 'a' | 'b' | 'c', string, boolean]> = [
  [0, 'a', 'in_person', false], // enrolled
  [1, 'a', 'in_person', false], // enrolled: the last seat
  [2, 'a', 'in_person', false], // full
  [3, 'a', 'in_person', true], // waitlisted
  [4, 'a', 'in_person', true], // waitlisted: the last wait-list place
  [5, 'a', 'in_person', true], // waitlist_full
  [0, 'a', 'in_person', false], // the same as the first: existing
  [6, 'b', 'in_person', false], // enrolled
  [2, 'a', 'in_person', true], // asked again, with the wait list: waitlist_full
  [6, 'c', 'in_person', false], // not offered: validation_error
  [5, 'b', 'online', false], // not offered: validation_error
  [1, 'b', 'in_person', false], // full
  [5, 'c', 'online', false], // enrolled
];
const USERS = 7;

interface Outcome {
  ok: boolean;
  created: boolean | null;
  code: string | null;
  status: string | null;
}

describe('bulk enrollments: a chunk decides every item as one request at a time would', () => {
  let sink: SmtpSink | undefined;
  before(async () => {
    sink = await startSmtpSink();
  });
  after(() => sink?.close());
  const server = useServer(() => ({ args: ['--smtp-url', sink!.url, '--public-url', 'https://learn.example.com'] }));

  /** Seven users and three events: a (2 seats, 2 wait-list places), b (1 seat), c (online only). */
  const twin = async () => {
    const api = server.api;
    const users: any[] = [];
    for (let i = 0; i < USERS; i++) {
      const response = await api.post('/api/v2/users/', { email: uniqueEmail(`chunk${i}`), name: `Chunk ${i}` });
      assert.equal(response.status, 201, response.text);
      users.push(response.body);
    }
    const event = async (fields: Record<string, unknown>) => {
      const response = await api.post('/api/v2/events/', {
        name: 'Chunked',
        timeslots: [{ starts_at: '2030-06-01T09:00:00Z', duration: 'PT2H' }],
        ...fields,
      });
      assert.equal(response.status, 201, response.text);
      return response.body;
    };
    const events = {
      a: await event({ is_local: true, enrollment_limit: 2, wait_list_limit: 2 }),
      b: await event({ is_local: true, enrollment_limit: 1 }),
      c: await event({ is_local: false, is_online: true }),
    };
    const items = ITEMS.map(([user, on, method, accept]) => ({
      user_id: users[user].public_id,
      event_id: events[on].public_id,
      attendance_method: method,
      accept_waitlist: accept,
    }));
    return { users, events, items };
  };

  /** What each user and event pair recorded, by user index and event letter: comparable across the twins. */
  const recorded = async (since: number, world: Awaited<ReturnType<typeof twin>>) => {
    const userIndex = new Map(world.users.map((user, i) => [user.public_id, i]));
    const eventLetter = new Map(Object.entries(world.events).map(([letter, event]) => [event.public_id, letter]));
    const byPair = new Map<string, string[]>();
    for (const entry of await outboxAfter(server.dbFile, since)) {
      const object = entry.payload.data.object;
      const eventId = object.event?.public_id ?? object.content_item?.public_id;
      const key = `${userIndex.get(object.user.public_id)}${eventLetter.get(eventId)}`;
      byPair.set(key, [...(byPair.get(key) ?? []), entry.type].sort());
    }
    return Object.fromEntries([...byPair].sort(([a], [b]) => a.localeCompare(b)));
  };

  const notificationKinds = async (world: Awaited<ReturnType<typeof twin>>) => {
    const kinds: string[][] = [];
    for (const user of world.users) {
      const response = await server.api.get(`/api/v2/notifications/?user=${user.public_id}`);
      assert.equal(response.status, 200, response.text);
      kinds.push(response.body.data.map((notification: any) => `${notification.kind}`).sort());
    }
    return kinds;
  };

  /** Drops the first enrolled user of event a: who takes the seat tells the wait list's order. */
  const promotedAfterDrop = async (world: Awaited<ReturnType<typeof twin>>) => {
    const api = server.api;
    const list = await api.get(`/api/v2/enrollments/?event=${world.events.a.public_id}&page_size=50`);
    assert.equal(list.status, 200, list.text);
    const first = list.body.data.find((enrollment: any) => enrollment.user.public_id === world.users[0].public_id);
    assert.equal((await api.post(`/api/v2/enrollments/${first.public_id}/drop/`, {})).status, 200);
    const after = await api.get(`/api/v2/enrollments/?event=${world.events.a.public_id}&page_size=50`);
    return after.body.data
      .filter((enrollment: any) => enrollment.status !== 'dropped')
      .map((enrollment: any) => `${world.users.findIndex((user) => user.public_id === enrollment.user.public_id)} ${enrollment.status}`)
      .sort();
  };

  it('gives each item of a mixed chunk the outcome, events, notifications and wait-list place of its own request', async () => {
    const api = server.api;

    const alone = await twin();
    const aloneSince = await lastSequence(server.dbFile);
    const aloneOutcomes: Outcome[] = [];
    for (const item of alone.items) {
      const response = await api.post('/api/v2/enrollments/', item);
      const ok = response.status === 200 || response.status === 201;
      aloneOutcomes.push({
        ok,
        created: ok ? response.status === 201 : null,
        code: ok ? null : response.body.error.code,
        status: ok ? response.body.status : null,
      });
    }
    const aloneEvents = await recorded(aloneSince, alone);

    const chunked = await twin();
    const chunkSince = await lastSequence(server.dbFile);
    const submitted = await api.post('/api/v2/enrollments/bulk/', { enrollments: chunked.items });
    assert.equal(submitted.status, 202, submitted.text);
    const jobPath = `/api/v2/enrollments/bulk/${submitted.body.id}/`;
    const job = await waitForJob(api, jobPath);
    assert.equal(job.status, 'completed', job.error_message);
    const chunkOutcomes: Outcome[] = [];
    for (const item of await jobItems(api, jobPath)) {
      const ok = item.status === 'succeeded';
      const enrollment = ok ? (await api.get(`/api/v2/enrollments/${item.public_id}/`)).body : null;
      chunkOutcomes.push({ ok, created: item.created, code: ok ? null : item.error.code, status: enrollment?.status ?? null });
    }
    const chunkEvents = await recorded(chunkSince, chunked);

    const expected = ['enrolled', 'enrolled', 'full', 'waitlisted', 'waitlisted', 'waitlist_full', 'enrolled', 'enrolled'];
    assert.deepEqual(
      aloneOutcomes.slice(0, 8).map((outcome) => outcome.status ?? outcome.code),
      expected,
      'the one-at-a-time run decides what this test means it to',
    );
    assert.deepEqual(chunkOutcomes, aloneOutcomes);
    assert.deepEqual(chunkEvents, aloneEvents);
    assert.deepEqual(chunkEvents['0a'], ['assignment.created', 'enrollment.enrolled']);
    assert.deepEqual(chunkEvents['3a'], ['assignment.created', 'enrollment.waitlisted']);
    assert.equal(chunkEvents['2a'], undefined, 'a refused item records nothing');
    const kinds = await notificationKinds(chunked);
    assert.deepEqual(kinds, await notificationKinds(alone));
    assert.deepEqual(kinds.slice(0, 6), [['enrolled'], ['enrolled'], [], ['waitlisted'], ['waitlisted'], ['enrolled']]);
    // the first waitlisted (user 3) takes the freed seat in both
    const promoted = await promotedAfterDrop(chunked);
    assert.deepEqual(promoted, await promotedAfterDrop(alone));
    assert.deepEqual(promoted, ['1 enrolled', '3 enrolled', '4 waitlisted']);
  });
});
