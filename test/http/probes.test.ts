/** `/healthz` and `/readyz`: anonymous, never rate-limited, and readiness follows the database. */
import assert from 'node:assert/strict';
import { queryDatabase } from '../helpers/database.ts';
import { describe, it } from 'node:test';
import { ApiClient, expectError, useServer } from '../helpers/server.ts';

describe('health and readiness probes', () => {
  const server = useServer({ args: ['--rate-limit', '2'] });

  it('healthz answers 200 {status: ok} without authentication, with X-Request-Id, with or without the slash', async () => {
    for (const path of ['/healthz', '/healthz/', '/healthz?verbose=1']) {
      for (const token of [null, 'lpat_' + 'A'.repeat(43)]) {
        const response = await server.api.get(path, { token });
        assert.equal(response.status, 200, `${path}: ${response.text}`);
        assert.deepEqual(response.body, { status: 'ok' });
        assert.match(response.headers.get('x-request-id') ?? '', /^req_/);
      }
    }
    const echoed = await server.api.get('/healthz', { token: null, headers: { 'x-request-id': 'probe-123' } });
    assert.equal(echoed.headers.get('x-request-id'), 'probe-123');
  });

  it('probes are not rate-limited and do not use up the caller’s budget', async () => {
    for (let i = 0; i < 6; i++) {
      for (const path of ['/healthz', '/readyz']) {
        const response = await server.api.get(path, { token: null });
        assert.equal(response.status, 200, `${path} #${i}: ${response.text}`);
        assert.equal(response.headers.get('x-ratelimit-limit'), null);
      }
    }
    // the anonymous budget of 2 is untouched by the probes above
    const first = await server.api.get('/api/v2/users/', { token: null });
    assert.equal(first.headers.get('x-ratelimit-remaining'), '1');
  });

  it('HEAD answers like GET without a body, OPTIONS lists the methods, others are 405 with Allow', async () => {
    const head = await server.api.request('HEAD', '/healthz', { token: null });
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    const post = await server.api.post('/readyz', {}, { token: null });
    expectError(post, 405, 'method_not_allowed');
    assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
    assert.ok(post.headers.get('x-request-id'));
    const options = await server.api.request('OPTIONS', '/healthz/', { token: null });
    assert.equal(options.status, 204);
    assert.equal(options.headers.get('allow'), 'GET, HEAD, OPTIONS');
  });

  it('readyz is 503 service_unavailable while the schema lacks a migration, and 200 again once it is applied', async () => {
    assert.deepEqual((await server.api.get('/readyz', { token: null })).body, { status: 'ok' });
    // as if an older schema were put back under the running server
    const [last] = await queryDatabase<{ name: string; timestamp: string }>(
      server.dbFile,
      'select * from kysely_migration order by name desc limit 1',
    );
    await queryDatabase(server.dbFile, 'delete from kysely_migration where name = ?', [last!.name]);
    try {
      // every server sharing the database sees it
      for (const url of server.urls) {
        const anonymous = new ApiClient(url, null);
        const unready = await anonymous.get('/readyz');
        expectError(unready, 503, 'service_unavailable');
        assert.match(unready.body.error.message, new RegExp(last!.name));
        assert.equal(unready.body.error.request_id, unready.headers.get('x-request-id'));
        assert.equal((await anonymous.get('/healthz')).status, 200, 'the process itself still serves');
      }
    } finally {
      await queryDatabase(server.dbFile, 'insert into kysely_migration (name, timestamp) values (?, ?)', [last!.name, last!.timestamp]);
    }
    assert.equal((await server.api.get('/readyz/', { token: null })).status, 200);
  });
});
