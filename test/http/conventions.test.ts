import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { uniqueEmail, type ApiResponse, useServer } from '../helpers/server.ts';

function assertCommonHeaders(response: ApiResponse) {
  assert.match(response.headers.get('x-request-id') ?? '', /^[A-Za-z0-9._:-]{1,128}$/);
  assert.match(response.headers.get('x-ratelimit-limit') ?? '', /^\d+$/);
  assert.match(response.headers.get('x-ratelimit-remaining') ?? '', /^\d+$/);
  assert.match(response.headers.get('x-ratelimit-reset') ?? '', /^\d+$/);
}

function assertError(response: ApiResponse, status: number, code: string) {
  assert.equal(response.status, status, response.text);
  assert.equal(response.body.error.code, code);
  assert.equal(typeof response.body.error.message, 'string');
  assert.equal(response.body.error.request_id, response.headers.get('x-request-id'));
  assertCommonHeaders(response);
}

describe('HTTP conventions', () => {
  const server = useServer();
  after(async () => {
    assert.equal(await server.stop(), 0);
  });

  it('answers every kind of response with a request id and the rate-limit headers', async () => {
    const api = server.api;
    const user = await api.post('/api/v2/users/', { email: uniqueEmail(), name: 'Headers' });
    const cases: Array<[string, Promise<ApiResponse>, number]> = [
      ['success', api.get('/api/v2/users/'), 200],
      ['created', Promise.resolve(user), 201],
      ['error', api.get('/api/v2/users/', { token: null }), 401],
      ['unknown route', api.get('/api/v2/nope/'), 404],
      ['wrong method', api.put('/api/v2/users/'), 405],
      [
        'not modified',
        api.get(`/api/v2/users/${user.body.public_id}/`, { headers: { 'if-none-match': user.headers.get('etag') ?? '' } }),
        304,
      ],
    ];
    for (const [label, pending, status] of cases) {
      const response = await pending;
      assert.equal(response.status, status, `${label}: ${response.text}`);
      assertCommonHeaders(response);
    }
  });

  it('echoes a safe client X-Request-Id and replaces an unsafe one', async () => {
    const echoed = await server.api.get('/api/v2/users/', { headers: { 'x-request-id': 'client-123.abc:9' } });
    assert.equal(echoed.headers.get('x-request-id'), 'client-123.abc:9');
    const replaced = await server.api.get('/api/v2/nope', { headers: { 'x-request-id': 'bad id with spaces' } });
    assert.notEqual(replaced.headers.get('x-request-id'), 'bad id with spaces');
    assert.equal(replaced.body.error.request_id, replaced.headers.get('x-request-id'));
  });

  it('answers unknown routes with 404 not_found and wrong methods with 405 and Allow', async () => {
    assertError(await server.api.get('/api/v2/does-not-exist'), 404, 'not_found');
    assertError(await server.api.get('/api/v2/does-not-exist', { token: null }), 404, 'not_found');
    const wrong = await server.api.delete('/api/v2/users/');
    assertError(wrong, 405, 'method_not_allowed');
    assert.equal(wrong.headers.get('allow'), 'GET, HEAD, POST, OPTIONS');
    // a literal path beside a parametric one (`bulk` is not an id): still 405, not 404
    const cases: Array<[string, string, string]> = [
      ['GET', '/api/v2/content-items/bulk/tags/', 'POST, PUT, DELETE, OPTIONS'],
      ['GET', '/api/v2/content-items/bulk/archive/', 'POST, OPTIONS'],
      ['GET', '/api/v2/users/bulk/', 'POST, OPTIONS'],
      ['GET', '/api/v2/assignments/bulk/', 'POST, OPTIONS'],
    ];
    for (const [method, path, allow] of cases) {
      const response = await server.api.request(method, path);
      assertError(response, 405, 'method_not_allowed');
      assert.equal(response.headers.get('allow'), allow, path);
    }
  });

  it('serves every path with and without the trailing slash', async () => {
    const created = await server.api.post('/api/v2/users', { email: uniqueEmail(), name: 'Slash' });
    assert.equal(created.status, 201);
    for (const path of [
      '/api/v2/users',
      '/api/v2/users/',
      `/api/v2/users/${created.body.public_id}`,
      `/api/v2/users/${created.body.public_id}/`,
    ]) {
      assert.equal((await server.api.get(path)).status, 200, path);
    }
  });

  it('rejects malformed, non-object and oversized bodies', async () => {
    assertError(await server.api.request('POST', '/api/v2/users/', { raw: '{"email": ' }), 400, 'bad_request');
    for (const raw of ['[1,2]', '"text"', '42', 'null']) {
      assertError(await server.api.request('POST', '/api/v2/users/', { raw }), 400, 'bad_request');
    }
    const big = JSON.stringify({ email: uniqueEmail(), name: 'x'.repeat(1024 * 1024 + 10) });
    assertError(await server.api.request('POST', '/api/v2/users/', { raw: big }), 413, 'payload_too_large');
    // the server is still healthy afterwards
    assert.equal((await server.api.get('/api/v2/users/')).status, 200);
  });

  it('rejects unknown body fields with 422 and a field error', async () => {
    const response = await server.api.post('/api/v2/users/', { email: uniqueEmail(), name: 'Typo', rol: 'admin' });
    assertError(response, 422, 'validation_error');
    assert.deepEqual(response.body.error.field_errors, { rol: ['Unknown field.'] });
  });

  it('reports every invalid field at once', async () => {
    const response = await server.api.post('/api/v2/users/', { email: 'not-an-email', name: '   ', role: 'boss' });
    assertError(response, 422, 'validation_error');
    assert.deepEqual(Object.keys(response.body.error.field_errors).sort(), ['email', 'name', 'role']);
    const missing = await server.api.post('/api/v2/users/', {});
    assert.deepEqual(missing.body.error.field_errors, { email: ['This field is required.'], name: ['This field is required.'] });
  });

  it('pages with defaults, clamps page_size to 100 and returns an empty page past the end', async () => {
    for (let i = 0; i < 3; i++) await server.api.post('/api/v2/users/', { email: uniqueEmail('page'), name: `Paged ${i}` });
    const first = await server.api.get('/api/v2/users/');
    assert.equal(first.body.meta.page, 1);
    assert.equal(first.body.meta.page_size, 25);
    const total = first.body.meta.total_count;
    assert.ok(total >= 4);
    const clamped = await server.api.get('/api/v2/users/?page_size=1000');
    assert.equal(clamped.body.meta.page_size, 100);
    const small = await server.api.get('/api/v2/users/?page_size=2&page=2');
    assert.equal(small.body.data.length, 2);
    assert.equal(small.body.meta.page, 2);
    const past = await server.api.get('/api/v2/users/?page=999');
    assert.deepEqual(past.body.data, []);
    assert.equal(past.body.meta.total_count, total);
  });

  it('rejects bad paging, filter and ordering values with 400 naming the parameter', async () => {
    const cases = [
      'page=0',
      'page=abc',
      'page_size=0',
      'page_size=-5',
      'is_active=maybe',
      'role=boss',
      'manager=not-a-uuid',
      'date_joined__gte=yesterday',
      'ordering=password',
    ];
    for (const query of cases) {
      const response = await server.api.get(`/api/v2/users/?${query}`);
      assertError(response, 400, 'bad_request');
      assert.ok(response.body.error.message.includes(query.split('=')[0]!), `${query}: ${response.body.error.message}`);
    }
    // unknown parameters are ignored
    assert.equal((await server.api.get('/api/v2/users/?colour=blue')).status, 200);
  });

  it('supports ETag, If-None-Match (304) and If-Match (412)', async () => {
    const created = await server.api.post('/api/v2/users/', { email: uniqueEmail(), name: 'Etag' });
    const path = `/api/v2/users/${created.body.public_id}/`;
    const first = await server.api.get(path);
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"[^"]+"$/);
    const notModified = await server.api.get(path, { headers: { 'if-none-match': etag } });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.text, '');
    const updated = await server.api.patch(path, { name: 'Etag 2' }, { headers: { 'if-match': etag } });
    assert.equal(updated.status, 200);
    assert.notEqual(updated.headers.get('etag'), etag);
    assertError(await server.api.patch(path, { name: 'Etag 3' }, { headers: { 'if-match': etag } }), 412, 'precondition_failed');
    assert.equal((await server.api.get(path)).body.name, 'Etag 2');
    assert.equal((await server.api.get(path, { headers: { 'if-none-match': etag } })).status, 200);
  });
});

describe('rate limiting', () => {
  const server = useServer({ args: ['--rate-limit', '5', '--rate-limit-window', '3600'] });
  before(async () => {
    // an hour-long window: a fixed window that rolled over mid-test would refill the budget
  });

  it('limits per token with 429, Retry-After and counting headers', async () => {
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await server.api.get('/api/v2/users/');
      assert.equal(response.status, 200);
      remaining.push(response.headers.get('x-ratelimit-remaining')!);
    }
    assert.deepEqual(remaining, ['4', '3', '2', '1', '0']);
    const limited = await server.api.get('/api/v2/users/');
    assertError(limited, 429, 'rate_limited');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal(limited.headers.get('x-ratelimit-limit'), '5');
    // another caller (unauthenticated, counted by IP) has its own budget
    assertError(await server.api.get('/api/v2/users/', { token: null }), 401, 'unauthenticated');
  });
});
