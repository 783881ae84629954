import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { outboxAfter as readOutbox } from '../helpers/outbox.ts';
import { expectError, type ApiClient, useServer } from '../helpers/server.ts';

describe('content batches and webhook events', () => {
  const server = useServer();
  let api: ApiClient;
  before(async () => {
    api = server.api;
  });

  const article = async (fields: Record<string, unknown> = {}) => {
    const response = await api.post('/api/v2/articles/', { name: 'Batch article', ...fields });
    assert.equal(response.status, 201, response.text);
    return response.body;
  };
  const read = async (id: string) => (await api.get(`/api/v2/content-items/${id}/`)).body;
  const items = (...ids: string[]) => ids.map((public_id) => ({ public_id }));

  /** The outbox as the server wrote it, read from the database file after the requests. */
  const outboxAfter = (sequence: number) => readOutbox(server.dbFile, sequence);
  const lastSequence = async () => (await outboxAfter(0)).at(-1)?.sequence ?? 0;

  describe('archive and unarchive', () => {
    it('answers 200 when every item succeeded, counting an idempotent repeat as success', async () => {
      const a = await article();
      const b = await article();
      const first = await api.post('/api/v2/content-items/bulk/archive/', { items: items(a.public_id, b.public_id) });
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(first.body, {
        data: {
          succeeded: [
            { public_id: a.public_id, index: 0 },
            { public_id: b.public_id, index: 1 },
          ],
          failed: [],
        },
        meta: { total: 2, succeeded_count: 2, failed_count: 0 },
      });
      assert.equal((await read(a.public_id)).is_archived, true);
      const again = await api.post('/api/v2/content-items/bulk/archive', { items: items(a.public_id, a.public_id) });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body.meta.succeeded_count, 2);

      const restored = await api.post('/api/v2/content-items/bulk/unarchive/', { items: items(a.public_id, b.public_id, b.public_id) });
      assert.equal(restored.status, 200, restored.text);
      assert.equal((await read(a.public_id)).is_archived, false);
      assert.equal((await read(b.public_id)).is_archived, false);
    });

    it('answers 207 for a mix of unknown and valid ids, changing only the valid ones', async () => {
      const a = await article();
      const b = await article();
      const unknown = crypto.randomUUID();
      const response = await api.post('/api/v2/content-items/bulk/archive/', {
        items: items(unknown, a.public_id, 'not-a-uuid', b.public_id),
      });
      assert.equal(response.status, 207, response.text);
      const requestId = response.headers.get('x-request-id');
      assert.deepEqual(response.body.data.succeeded, [
        { public_id: a.public_id, index: 1 },
        { public_id: b.public_id, index: 3 },
      ]);
      assert.deepEqual(response.body.data.failed, [
        { index: 0, error: { code: 'not_found', message: 'Content item not found.', request_id: requestId } },
        { index: 2, error: { code: 'not_found', message: 'Content item not found.', request_id: requestId } },
      ]);
      assert.deepEqual(response.body.meta, { total: 4, succeeded_count: 2, failed_count: 2 });
      assert.equal(response.body.error, undefined);
      assert.equal((await read(a.public_id)).is_archived, true);
      assert.equal((await read(b.public_id)).is_archived, true);
    });

    it('answers 422 with the batch shape and an error member when every item failed', async () => {
      const gone = await article();
      await api.delete(`/api/v2/content-items/${gone.public_id}/`);
      const response = await api.post('/api/v2/content-items/bulk/unarchive/', { items: items(crypto.randomUUID(), gone.public_id) });
      assert.equal(response.status, 422, response.text);
      assert.equal(response.body.error.code, 'validation_error');
      assert.equal(response.body.error.request_id, response.headers.get('x-request-id'));
      assert.deepEqual(response.body.data.succeeded, []);
      assert.deepEqual(
        response.body.data.failed.map((f: any) => [f.index, f.error.code]),
        [
          [0, 'not_found'],
          [1, 'not_found'],
        ],
      );
      assert.deepEqual(response.body.meta, { total: 2, succeeded_count: 0, failed_count: 2 });
    });

    it('rejects a malformed envelope as a whole, changing nothing', async () => {
      const a = await article();
      const cases: Array<[unknown, string]> = [
        [{}, 'items'],
        [{ items: 'all' }, 'items'],
        [{ items: [] }, 'items'],
        [{ items: Array.from({ length: 101 }, () => ({ public_id: a.public_id })) }, 'items'],
        [{ items: [{ public_id: a.public_id }, {}] }, 'items.1.public_id'],
        [{ items: [{ public_id: a.public_id }, { id: a.public_id }] }, 'items.1.public_id'],
        [{ items: [{ public_id: 7 }] }, 'items.0.public_id'],
        [{ items: [{ public_id: a.public_id }], extra: true }, 'extra'],
      ];
      for (const [body, field] of cases) {
        const response = await api.post('/api/v2/content-items/bulk/archive/', body);
        expectError(response, 422, 'validation_error');
        assert.ok(response.body.error.field_errors[field], `${field}: ${response.text}`);
        assert.equal(response.body.data, undefined);
      }
      assert.equal((await read(a.public_id)).is_archived, false);
      const exactly100 = await api.post('/api/v2/content-items/bulk/archive/', {
        items: Array.from({ length: 100 }, () => ({ public_id: a.public_id })),
      });
      assert.equal(exactly100.status, 200, exactly100.text);
    });
  });

  describe('bulk tags', () => {
    it('adds (creating unknown names), removes (ignoring absent ones) and replaces per item', async () => {
      const fresh = `fresh-${Date.now()}`;
      const a = await article({ tags: ['old'] });
      const b = await article();
      const added = await api.post('/api/v2/content-items/bulk/tags/', { items: items(a.public_id, b.public_id), tags: [fresh, 'shared'] });
      assert.equal(added.status, 200, added.text);
      assert.deepEqual((await read(a.public_id)).tags, [fresh, 'old', 'shared']);
      assert.deepEqual((await read(b.public_id)).tags, [fresh, 'shared']);
      assert.deepEqual((await api.get(`/api/v2/content-items/?tag=${fresh}`)).body.meta.total_count, 2);

      const removed = await api.delete('/api/v2/content-items/bulk/tags/', {
        items: items(a.public_id, b.public_id),
        tags: ['old', 'never'],
      });
      assert.equal(removed.status, 200, removed.text);
      assert.deepEqual((await read(a.public_id)).tags, [fresh, 'shared']);
      assert.deepEqual((await read(b.public_id)).tags, [fresh, 'shared']);

      const replaced = await api.put('/api/v2/content-items/bulk/tags/', {
        items: items(a.public_id, crypto.randomUUID()),
        tags: ['only'],
      });
      assert.equal(replaced.status, 207, replaced.text);
      assert.deepEqual(
        replaced.body.data.failed.map((f: any) => f.index),
        [1],
      );
      assert.deepEqual((await read(a.public_id)).tags, ['only']);

      const cleared = await api.put('/api/v2/content-items/bulk/tags/', { items: items(a.public_id), tags: [] });
      assert.equal(cleared.status, 200, cleared.text);
      assert.deepEqual((await read(a.public_id)).tags, []);

      for (const [method, body, field] of [
        ['POST', { items: items(a.public_id), tags: [] }, 'tags'],
        ['DELETE', { items: items(a.public_id) }, 'tags'],
        ['POST', { items: [], tags: ['x'] }, 'items'],
        ['PUT', { items: items(a.public_id), tags: ['x'.repeat(101)] }, 'tags.0'],
      ] as const) {
        const response = await api.request(method, '/api/v2/content-items/bulk/tags/', { body });
        expectError(response, 422, 'validation_error');
        assert.ok(response.body.error.field_errors[field], `${method} ${field}: ${response.text}`);
      }
    });
  });

  describe('webhook events in the outbox', () => {
    it('records the generic and the type-specific event for every change, in the same transaction', async () => {
      const since = await lastSequence();
      const track = (await api.post('/api/v2/tracks/', { name: 'Evented', tags: ['t1'] })).body;
      await api.patch(`/api/v2/tracks/${track.public_id}/`, { description: 'changed' });
      await api.post('/api/v2/content-items/bulk/archive/', { items: items(track.public_id) });
      await api.post('/api/v2/content-items/bulk/archive/', { items: items(track.public_id) }); // idempotent: no event
      await api.post('/api/v2/content-items/bulk/unarchive/', { items: items(track.public_id) });
      await api.post(`/api/v2/content-items/${track.public_id}/tags/`, { tags: ['t2'] });
      await api.patch(`/api/v2/content-items/${track.public_id}/`, { name: 'Evented' }); // no change: no event
      const before = await read(track.public_id);
      const beforeTyped = (await api.get(`/api/v2/tracks/${track.public_id}/`)).body;
      await api.delete(`/api/v2/content-items/${track.public_id}/`);

      const events = await outboxAfter(since);
      assert.deepEqual(
        events.map((e) => e.type),
        ['created', 'updated', 'archived', 'unarchived', 'updated', 'deleted'].flatMap((action) => [
          `content_item.${action}`,
          `track.${action}`,
        ]),
      );
      for (const event of events) {
        assert.match(event.payload.id, /^msg_[0-9A-Z]{26}$/);
        assert.equal(event.payload.type, event.type);
        assert.equal(event.payload.api_version, '2.0');
        assert.match(event.payload.created_at, /Z$/);
        assert.equal(event.payload.data.object.public_id, track.public_id);
        const typed = event.type.startsWith('track.');
        assert.equal('items' in event.payload.data.object, typed, `${event.type} carries ${typed ? 'the track shape' : 'the summary'}`);
      }
      const { items: _items, ...trackSummary } = track;
      assert.deepEqual(events[0]!.payload.data.object, trackSummary);
      assert.deepEqual(events[1]!.payload.data.object, track);
      assert.equal(events[4]!.payload.data.object.is_archived, true);
      assert.equal(events[6]!.payload.data.object.is_archived, false);
      assert.deepEqual(events[8]!.payload.data.object.tags, ['t1', 't2']);
      // deleted: the object as it was just before deletion
      assert.deepEqual(events[10]!.payload.data.object, before);
      assert.deepEqual(events[11]!.payload.data.object, beforeTyped);
    });

    it('records nothing for a failed batch item or a rejected request', async () => {
      const a = await article();
      const since = await lastSequence();
      await api.post('/api/v2/content-items/bulk/archive/', { items: items(crypto.randomUUID(), a.public_id) });
      await api.post('/api/v2/articles/', { name: '' });
      assert.deepEqual(
        (await outboxAfter(since)).map((e) => e.type),
        ['content_item.archived', 'article.archived'],
      );
    });
  });
});
