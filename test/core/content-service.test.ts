/** In-process checks of what the content area offers other areas (events, assignments). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { contentSummarySchema, createLectern, LecternError, type Actor, type Lectern } from '@lectern/core';
import { openSqliteStorage, type KyselyStorage } from '@lectern/storage';
import { createLearner } from '../helpers/learner.ts';

describe('content service for other areas', () => {
  let storage: KyselyStorage;
  let lectern: Lectern;
  before(async () => {
    storage = await openSqliteStorage({ file: ':memory:' });
    lectern = createLectern({ storage });
  });
  after(async () => {
    await lectern.close();
  });

  const learner = async (): Promise<Actor> => (await createLearner(lectern, `u${Date.now()}${Math.random()}@example.com`)).actor;
  const rejectsWith = async (work: Promise<unknown>, code: string) =>
    assert.rejects(work, (error) => error instanceof LecternError && error.code === code);

  it('treats events and event series as content types, with both webhook families', async () => {
    const ctx = lectern.context();
    const event = await lectern.scheduledEvents.create(ctx, {
      name: 'Kick-off',
      tags: ['live'],
      timeslots: [{ starts_at: '2026-05-04T09:00:00Z', duration: 'PT1H' }],
    });
    const series = await lectern.eventSeries.create(ctx, { name: 'Weekly' });
    assert.deepEqual([event.content_type, series.content_type], ['event', 'event_type']);
    const listed = await lectern.content.list(ctx, { content_type: 'event,event_type' });
    assert.deepEqual(listed.data.map((item) => item.public_id).sort(), [event.public_id, series.public_id].sort());

    await lectern.content.bulkSetArchived(ctx, true, { items: [{ public_id: series.public_id }] });
    const events = await lectern.storage.outbox.readAfter(0, 100);
    assert.deepEqual(
      events.map((entry) => entry.event.type),
      [
        'content_item.created',
        'event.created',
        'content_item.created',
        'event_type.created',
        'content_item.archived',
        'event_type.archived',
      ],
    );
  });

  it('refuses to delete an event a live track lists (409 referenced_by_track)', async () => {
    const ctx = lectern.context();
    const event = await lectern.scheduledEvents.create(ctx, {
      name: 'Held',
      timeslots: [{ starts_at: '2026-05-04T09:00:00Z', duration: 'PT1H' }],
    });
    const track = await lectern.content.create(ctx, 'track', { name: 'Holder', items: [event.public_id] });
    await rejectsWith(lectern.content.delete(ctx, event.public_id), 'referenced_by_track');
    await lectern.content.delete(ctx, track.public_id);
    await lectern.content.delete(ctx, event.public_id);
    await rejectsWith(lectern.content.get(ctx, event.public_id), 'not_found');
  });

  it('offers requireAssignable: 404 when invisible to the actor, 409 archived when archived', async () => {
    const ctx = lectern.context();
    const open = await lectern.content.create(ctx, 'article', { name: 'Open' });
    const hidden = await lectern.content.create(ctx, 'article', { name: 'Hidden', is_hidden: true });
    const archived = await lectern.content.create(ctx, 'course', { name: 'Old' });
    await lectern.content.bulkSetArchived(ctx, true, { items: [{ public_id: archived.public_id }] });
    const user = await learner();

    await lectern.storage.transaction(async (tx) => {
      const record = await lectern.contentWrites.requireAssignable(tx, user, open.public_id);
      assert.equal(record.summary.public_id, open.public_id);
      assert.equal(typeof record.id, 'number');
      await rejectsWith(lectern.contentWrites.requireAssignable(tx, user, hidden.public_id), 'not_found');
      await rejectsWith(lectern.contentWrites.requireAssignable(tx, user, crypto.randomUUID()), 'not_found');
      // an admin sees the archived item, and is still refused
      await rejectsWith(lectern.contentWrites.requireAssignable(tx, ctx.actor, archived.public_id), 'archived');
      assert.equal((await lectern.contentWrites.requireAssignable(tx, ctx.actor, hidden.public_id)).summary.is_hidden, true);
    });
  });

  it('keeps the counters the assignments area maintains, with a null average until rated', async () => {
    const ctx = lectern.context();
    const item = await lectern.content.create(ctx, 'guide', { name: 'Counted' });
    assert.deepEqual([item.total_assignments, item.completed_assignments_count, item.avg_feedback_rating], [0, 0, null]);
    await storage.db
      .updateTable('content_items')
      .set({ total_assignments: 3, completed_assignments_count: 1, rating_sum: 14, rating_count: 3 })
      .where('public_id', '=', item.public_id)
      .execute();
    const read = await lectern.content.get(ctx, item.public_id);
    assert.deepEqual([read.total_assignments, read.completed_assignments_count, read.avg_feedback_rating], [3, 1, 4.67]);
  });
});

describe('content lists', () => {
  it('answer each item with the fields in the order of the schema, the lists loaded per page included', async () => {
    const storage = await openSqliteStorage({ file: ':memory:' });
    const lectern = createLectern({ storage });
    try {
      const ctx = lectern.context();
      await lectern.content.create(ctx, 'link', { name: 'Ordered', url: 'https://example.com/', tags: ['a'] });
      const [item] = (await lectern.content.list(ctx, {})).data;
      assert.deepEqual(Object.keys(item!), Object.keys(contentSummarySchema.shape), 'the JSON, and so its ETag, follow this order');
    } finally {
      await lectern.close();
    }
  });
});
