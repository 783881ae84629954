import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLectern, type Lectern } from '@lectern/core';
import { openSqliteStorage } from '@lectern/storage';
import { createApp } from './app.ts';
import { createFetchHandler, type FetchHandler } from './fetch-handler.ts';

describe('fetch-style handler', () => {
  let lectern: Lectern;
  let handler: FetchHandler;
  let token: string;
  before(async () => {
    lectern = createLectern({ storage: await openSqliteStorage({ file: ':memory:' }) });
    token = (await lectern.bootstrapAdmin({ email: 'root@example.com', name: 'Root' }))!.token.token;
    handler = createFetchHandler(createApp(lectern));
  });
  after(() => lectern.close());

  it('serves the same API to WHATWG requests', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const created = await handler(
      new Request('http://embedded/api/v2/users/', {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ email: 'x@example.com', name: 'X' }),
      }),
    );
    assert.equal(created.status, 201);
    assert.ok(created.headers.get('etag'));
    const user = (await created.json()) as { public_id: string };
    const fetched = await handler(new Request(`http://embedded/api/v2/users/${user.public_id}`, { headers: auth }));
    assert.deepEqual(await fetched.json(), user);
    assert.ok(fetched.headers.get('x-request-id'));
    assert.equal(fetched.headers.get('x-ratelimit-limit'), '600');

    const anonymous = await handler(new Request('http://embedded/api/v2/users/'));
    assert.equal(anonymous.status, 401);
    assert.equal(((await anonymous.json()) as any).error.code, 'unauthenticated');

    const head = await handler(new Request(`http://embedded/api/v2/users/${user.public_id}`, { method: 'HEAD', headers: auth }));
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('etag'), fetched.headers.get('etag'));
    assert.equal(await head.text(), '');
    const hostLike = await handler(new Request('http://embedded//x/api/v2/users/', { headers: auth }));
    assert.equal(hostLike.status, 400);

    const huge = await handler(
      new Request('http://embedded/api/v2/users/', { method: 'POST', headers: auth, body: 'x'.repeat(1024 * 1024 + 1) }),
    );
    assert.equal(huge.status, 413);
    assert.equal(((await huge.json()) as any).error.code, 'payload_too_large');
  });
});
