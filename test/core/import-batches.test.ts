/**
 * The batch writes an import uses for its new rows (docs/imports.md, "Batched writes"): which
 * items each writes itself and which it leaves to the bulk item's one-by-one write, and that what
 * it writes keeps the counters equal to a recount. test/http/imports-batch.test.ts compares the
 * whole result with the bulk route's; this holds the batch to actually taking the plain rows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bulkUserItem, type Lectern } from '@lectern/core';
import type { KyselyStorage } from '@lectern/storage';
import { assertCountsMatchRecount } from '../helpers/kept-counts.ts';
import { startInMemoryLectern } from '../helpers/in-memory-lectern.ts';

describe('import batch writes', () => {
  let storage: KyselyStorage;
  let lectern: Lectern;
  before(async () => ({ storage, lectern } = await startInMemoryLectern()));
  after(() => lectern.close());

  let emails = 0;
  const user = () => lectern.users.create(lectern.context(), { email: `batch${emails++}@example.com`, name: 'Batch' });
  const events = async (from: number) => (await storage.outbox.readAfter(from, 10_000)).map((entry) => entry.event);
  const lastSequence = async () => (await storage.outbox.readAfter(0, 100_000)).at(-1)?.sequence ?? 0;

  it('assignments: writes plain pairs and finds assigned ones; leaves tracks, held, archived, unknown and repeated ones', async () => {
    const ctx = lectern.context();
    const [a, b, c] = [await user(), await user(), await user()];
    const plain = await lectern.content.create(ctx, 'article', { name: 'Plain' });
    const held = await lectern.content.create(ctx, 'article', { name: 'Held' });
    const track = await lectern.content.create(ctx, 'track', { name: 'Track', items: [held.public_id] });
    const archived = await lectern.content.create(ctx, 'article', { name: 'Archived' });
    await lectern.content.bulkSetArchived(ctx, true, { items: [{ public_id: archived.public_id }] });
    const before = (await lectern.assignments.create(ctx, { user_id: a.public_id, content_item_id: plain.public_id })).assignment;
    const from = await lastSequence();

    const items = [
      { user_id: a.public_id, content_item_id: plain.public_id },
      { user_id: b.public_id, content_item_id: plain.public_id, due_date: '2030-01-31' },
      { user_id: c.public_id, content_item_id: plain.public_id },
      { user_id: b.public_id, content_item_id: track.public_id },
      { user_id: b.public_id, content_item_id: held.public_id },
      { user_id: c.public_id, content_item_id: archived.public_id },
      { user_id: c.public_id, content_item_id: '00000000-0000-7000-8000-000000000000' },
      { user_id: c.public_id, content_item_id: plain.public_id },
    ];
    const answers = await storage.transaction((tx) => lectern.assignments.createManyInTx(tx, ctx, items));
    assert.deepEqual(
      answers.map((answer) => (answer === undefined ? 'left' : answer.created ? 'created' : 'existing')),
      ['existing', 'created', 'created', 'left', 'left', 'left', 'left', 'left'],
    );
    assert.equal(answers[0]!.publicId, before.public_id);
    const created = await lectern.assignments.get(ctx, answers[1]!.publicId);
    assert.equal(created.assignment.due_date, '2030-01-31');
    assert.equal(created.assignment.state, 'not_started');
    const written = await events(from);
    assert.deepEqual(
      written.map((event) => [event.type, (event.data.object as { public_id: string }).public_id]),
      [
        ['assignment.created', answers[1]!.publicId],
        ['assignment.created', answers[2]!.publicId],
      ],
    );
    const audit = await lectern.auditLog.list(ctx, { resource_id: answers[1]!.publicId });
    assert.deepEqual(
      audit.data.map((entry) => entry.action),
      ['assignment.created'],
    );
    await assertCountsMatchRecount(storage);
  });

  it('enrollments: decides seats in order from one count, refusals included; leaves users already assigned and, after them, the event', async () => {
    const ctx = lectern.context();
    const users = [await user(), await user(), await user(), await user()];
    const event = await lectern.scheduledEvents.create(ctx, {
      name: 'Seats',
      is_local: true,
      enrollment_limit: 1,
      wait_list_limit: 1,
      timeslots: [{ starts_at: '2030-06-01T09:00:00Z', duration: 'PT2H' }],
    } as never);
    const other = await lectern.scheduledEvents.create(ctx, {
      name: 'Other',
      is_local: true,
      timeslots: [{ starts_at: '2030-06-01T09:00:00Z', duration: 'PT2H' }],
    } as never);
    await lectern.assignments.create(ctx, { user_id: users[3]!.public_id, content_item_id: other.public_id });
    const row = (user: number, on: { public_id: string }, accept = false) => ({
      user_id: users[user]!.public_id,
      event_id: on.public_id,
      attendance_method: 'in_person',
      accept_waitlist: accept,
    });
    const items = [row(0, event), row(1, event), row(2, event, true), row(3, event, true), row(3, other), row(0, other)];
    const answers = await storage.transaction((tx) => lectern.enrollments.enrollManyInTx(tx, ctx, items));
    const outcome = (answer: (typeof answers)[number]) =>
      answer === undefined ? 'left' : 'publicId' in answer ? 'created' : `refused ${answer.code}`;
    assert.deepEqual(
      answers.map(outcome),
      // user 1 finds no seat and no wait list asked for; user 3 the wait list full: both refused
      // in the batch with the item write's errors, taking no seat
      ['created', 'refused full', 'created', 'refused waitlist_full', 'left', 'left'],
    );
    const created = (answer: (typeof answers)[number]) => (answer && 'publicId' in answer ? answer.publicId : assert.fail('not created'));
    const enrolled = await lectern.enrollments.get(ctx, created(answers[0]));
    const waiting = await lectern.enrollments.get(ctx, created(answers[2]));
    assert.deepEqual([enrolled.status, enrolled.state], ['enrolled', 'not_started']);
    assert.equal(waiting.status, 'waitlisted');
    const owned = await lectern.assignments.list(ctx, { user: users[0]!.public_id });
    assert.deepEqual(
      owned.data.map((assignment) => [assignment.content_item.public_id, assignment.is_enrollment_managed]),
      [[event.public_id, true]],
    );
    await assertCountsMatchRecount(storage);
  });

  it('users: writes new users with their audit entries; a taken email fails the whole statement', async () => {
    const ctx = lectern.context();
    const answers = await storage.transaction((tx) =>
      // as the import hands them over: through the row's schema already
      lectern.users.insertManyInTx(
        tx,
        ctx,
        [
          { email: 'fresh1@example.com', name: 'Fresh', role: 'organizer' },
          { email: 'fresh2@example.com', name: 'Fresh', employee_id: 'E9' },
        ].map((item) => bulkUserItem.parse(item)),
      ),
    );
    assert.equal(answers.length, 2);
    const second = await lectern.users.get(ctx, answers[1]!.publicId);
    assert.deepEqual([second.email, second.role, second.employee_id], ['fresh2@example.com', 'user', 'E9']);
    assert.deepEqual(
      (await lectern.auditLog.list(ctx, { resource_id: second.public_id })).data.map((entry) => entry.action),
      ['user.created'],
    );
    await assert.rejects(
      storage.transaction((tx) =>
        lectern.users.insertManyInTx(tx, ctx, [bulkUserItem.parse({ email: 'FRESH1@example.com', name: 'Again' })]),
      ),
    );
  });
});
