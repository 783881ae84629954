/**
 * The HTTP server's own defences and manners: HEAD and OPTIONS, CORS, slow clients, the connection
 * cap, and the validation envelope. Malformed requests and oversized bodies are in robustness.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { openSocket, rawRequest, readResponse, type RawResponse } from '../helpers/raw-http.ts';
import { runCli, startServer, uniqueEmail, type ApiResponse, type TestServer, useServer } from '../helpers/server.ts';

const APP = 'https://app.example.com';

function assertEnvelope(response: RawResponse, status: number, code: string) {
  assert.equal(response.status, status, response.text);
  assert.equal(response.body?.error?.code, code, response.text);
  assert.equal(response.body.error.request_id, response.headers['x-request-id']);
  assert.match(response.headers['x-ratelimit-limit'] ?? '', /^\d+$/);
}

describe('HEAD, OPTIONS and CORS', () => {
  const server = useServer({ args: ['--cors-origins', `${APP},https://admin.example.com`] });

  it('answers HEAD wherever GET works, with the same status and headers and no body', async () => {
    const created = await server.api.post('/api/v2/users/', { email: uniqueEmail('head'), name: 'Head' });
    // errors name the method in their message, so only their status and type match GET's
    const paths: Array<[string, string[]]> = [
      ['/api/v2/users/', ['content-type', 'content-length']],
      [`/api/v2/users/${created.body.public_id}/`, ['content-type', 'content-length', 'etag']],
      ['/api/v2/nope/', ['content-type']],
      ['/api/v2/users/bulk/', ['content-type', 'allow']],
    ];
    for (const [path, headers] of paths) {
      const get = await server.api.get(path);
      const head = await server.api.request('HEAD', path);
      assert.equal(head.status, get.status, path);
      assert.equal(head.text, '', path);
      for (const name of headers) {
        assert.ok(get.headers.get(name), `${path} ${name}`);
        assert.equal(head.headers.get(name), get.headers.get(name), `${path} ${name}`);
      }
    }
    assert.equal((await server.api.request('HEAD', '/api/v2/users/', { token: null })).status, 401);
    const notAllowed = await server.api.request('HEAD', '/api/v2/content-items/bulk/archive/');
    assert.equal(notAllowed.status, 405);
    assert.equal(notAllowed.headers.get('allow'), 'POST, OPTIONS');
  });

  it('answers OPTIONS with 204 and Allow, without authentication', async () => {
    const cases: Array<[string, string]> = [
      ['/api/v2/users/', 'GET, HEAD, POST, OPTIONS'],
      ['/api/v2/groups/00000000-0000-0000-0000-000000000000/members/', 'GET, HEAD, POST, PUT, DELETE, OPTIONS'],
      ['/api/v2/content-items/bulk/tags/', 'POST, PUT, DELETE, OPTIONS'],
    ];
    for (const [path, allow] of cases) {
      const response = await server.api.request('OPTIONS', path, { token: null });
      assert.equal(response.status, 204, `${path}: ${response.text}`);
      assert.equal(response.headers.get('allow'), allow, path);
      assert.equal(response.text, '');
      assert.ok(response.headers.get('x-request-id'));
    }
    assert.equal((await server.api.request('OPTIONS', '/api/v2/nope/', { token: null })).status, 404);
    // 405 lists the same methods
    assert.equal((await server.api.delete('/api/v2/users/')).headers.get('allow'), 'GET, HEAD, POST, OPTIONS');
  });

  it('answers a preflight from a listed origin without authentication', async () => {
    const preflight = await server.api.request('OPTIONS', '/api/v2/users/', {
      token: null,
      headers: { origin: APP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    assert.equal(preflight.status, 204, preflight.text);
    assert.equal(preflight.headers.get('access-control-allow-origin'), APP);
    assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, HEAD, POST, OPTIONS');
    const allowedHeaders = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
    for (const name of ['authorization', 'content-type', 'if-match', 'if-none-match', 'x-request-id'])
      assert.ok(allowedHeaders.includes(name), name);
    assert.match(preflight.headers.get('access-control-max-age') ?? '', /^\d+$/);
    assert.equal(preflight.headers.get('vary'), 'Origin');
    assert.equal(preflight.headers.get('access-control-allow-credentials'), null);
  });

  it('lets scripts of a listed origin read responses and errors, with the API headers exposed', async () => {
    for (const [token, status] of [
      [undefined, 200],
      [null, 401],
    ] as const) {
      const response = await server.api.get('/api/v2/users/', { token, headers: { origin: 'https://admin.example.com' } });
      assert.equal(response.status, status);
      assert.equal(response.headers.get('access-control-allow-origin'), 'https://admin.example.com');
      assert.equal(response.headers.get('vary'), 'Origin');
      const exposed = (response.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/);
      for (const name of [
        'x-request-id',
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
        'etag',
        'retry-after',
        'location',
      ]) {
        assert.ok(exposed.includes(name), name);
      }
    }
  });

  it('gives an origin not listed no Access-Control-Allow-Origin, and its preflight a 403', async () => {
    const evil = 'https://evil.example.com';
    const response = await server.api.get('/api/v2/users/', { headers: { origin: evil } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), null);
    assert.equal(response.headers.get('vary'), 'Origin');
    const preflight = await server.api.request('OPTIONS', '/api/v2/users/', {
      token: null,
      headers: { origin: evil, 'access-control-request-method': 'GET' },
    });
    assert.equal(preflight.status, 403);
    assert.equal(preflight.body.error.code, 'forbidden');
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
    assert.equal(preflight.headers.get('access-control-allow-methods'), null);
  });

  it('reports validation errors with both field_errors and non_field_errors', async () => {
    const response = await server.api.post('/api/v2/users/', {});
    assert.equal(response.status, 422);
    const { message, request_id, ...rest } = response.body.error;
    assert.equal(typeof message, 'string');
    assert.equal(request_id, response.headers.get('x-request-id'));
    assert.deepEqual(rest, {
      code: 'validation_error',
      field_errors: { email: ['This field is required.'], name: ['This field is required.'] },
      non_field_errors: [],
    });
    const batch = await server.api.post('/api/v2/content-items/bulk/archive/', { items: [{ public_id: crypto.randomUUID() }] });
    assert.equal(batch.status, 422, batch.text);
    assert.deepEqual(batch.body.error.field_errors, {});
    assert.deepEqual(batch.body.error.non_field_errors, []);
  });
});

describe('slow clients and the connection cap', () => {
  let slow: TestServer;
  before(async () => {
    slow = await startServer({ args: ['--headers-timeout-ms', '200', '--request-timeout-ms', '400', '--upload-timeout-ms', '1500'] });
  });
  after(async () => {
    await slow.stop();
  });

  it('closes connections whose headers or body do not arrive in time, with 408 in the envelope', { timeout: 20_000 }, async () => {
    const partial = [
      '',
      'GET /api/v2/users/ HTTP/1.1\r\nHost: x\r\n',
      'POST /api/v2/groups/ HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"na',
    ];
    for (const sent of partial) {
      const socket = await openSocket(slow.url);
      const response = readResponse(socket);
      if (sent) socket.write(sent);
      const answer = await response;
      socket.destroy();
      assertEnvelope(answer, 408, 'request_timeout');
      assert.equal(answer.closed, true, JSON.stringify(sent));
      await slow.waitForOutput(new RegExp(`"request_id":"${answer.body.error.request_id}"[^\\n]*"status":408`));
    }
  });

  it('gives an import’s upload the upload timeout rather than the request timeout', { timeout: 20_000 }, async () => {
    const rows = `email,name\n${uniqueEmail('slowupload')},Slow\n`;
    const head = (length: number) =>
      `POST /api/v2/imports/?kind=users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${slow.adminToken}\r\n` +
      `Content-Type: text/csv\r\nContent-Length: ${length}\r\n\r\n`;
    const upload = await openSocket(slow.url);
    let answered = false;
    const uploadAnswer = readResponse(upload, 10).finally(() => (answered = true));
    upload.write(head(Buffer.byteLength(rows)) + rows.slice(0, 11));

    // an ordinary request sent meanwhile is cut at the request timeout; the upload is not
    const other = await openSocket(slow.url);
    const otherAnswer = readResponse(other);
    other.write('POST /api/v2/groups/ HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"na');
    assertEnvelope(await otherAnswer, 408, 'request_timeout');
    other.destroy();
    assert.equal(answered, false, 'the upload is still being received');
    upload.write(rows.slice(11));
    const accepted = await uploadAnswer;
    upload.destroy();
    assert.equal(accepted.status, 202, accepted.text);

    // and an upload that stops arriving is cut at the upload timeout, with nothing stored
    const stalled = await openSocket(slow.url);
    const stalledAnswer = readResponse(stalled);
    stalled.write(head(1000) + rows);
    const cut = await stalledAnswer;
    stalled.destroy();
    assertEnvelope(cut, 408, 'request_timeout');
    assert.equal(cut.closed, true);
  });

  it('refuses cross-origin preflights when no origin is listed', async () => {
    const preflight = await rawRequest(
      slow.url,
      `OPTIONS /api/v2/users/ HTTP/1.1\r\nHost: x\r\nOrigin: ${APP}\r\nAccess-Control-Request-Method: GET\r\nConnection: close\r\n\r\n`,
    );
    assertEnvelope(preflight, 403, 'forbidden');
    assert.deepEqual(
      Object.keys(preflight.headers).filter((name) => name.startsWith('access-control-') || name === 'vary'),
      [],
    );
  });

  it('makes room when full by closing an idle connection of the address holding the most', { timeout: 20_000 }, async () => {
    const capped = await startServer({ args: ['--max-connections', '4', '--max-connections-per-address', '3'] });
    try {
      // two other clients hold every slot with sockets that never finish their headers
      const held = [];
      for (const from of ['127.0.0.2', '127.0.0.2', '127.0.0.2', '127.0.0.3']) {
        const socket = await openSocket(capped.url, from);
        socket.on('error', () => {});
        socket.write('GET /api/v2/users/ HTTP/1.1\r\nHost: x\r\n');
        held.push({ socket, from, closed: new Promise<void>((resolve) => socket.once('close', () => resolve())) });
      }
      // a full server still serves a newcomer, connection after connection (three: even if none
      // had closed yet, the address holding one would still not be the one to give way)
      for (let i = 0; i < 3; i++) {
        const answer = await rawRequest(
          capped.url,
          `GET /api/v2/users/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${capped.adminToken}\r\nConnection: close\r\n\r\n`,
        );
        assert.equal(answer.status, 200, answer.text);
      }
      // the first to go was the oldest of the address holding three, never the other client's
      await held[0]!.closed;
      const open = await Promise.all(held.map((h) => Promise.race([h.closed.then(() => false), delay(200).then(() => true)])));
      assert.equal(open[3], true, 'the client with one connection keeps it');
      await capped.waitForOutput(/closing idle connections to make room/);
      for (const { socket } of held) socket.destroy();
    } finally {
      await capped.stop();
    }
  });

  it('closes new connections as they arrive only when every connection is answering a request', { timeout: 20_000 }, async () => {
    const capped = await startServer({ args: ['--max-connections', '2'], env: { LECTERN_CORS_ORIGINS: APP } });
    try {
      // requests whose bodies are still on their way: busy, so not closed to make room (the
      // 100 Continue says the server has taken the request in)
      const held = [];
      for (let i = 0; i < 2; i++) {
        const socket = await openSocket(capped.url);
        socket.on('error', () => {});
        const continued = new Promise<void>((resolve) => socket.once('data', () => resolve()));
        socket.write(
          `POST /api/v2/groups/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${capped.adminToken}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n',
        );
        await continued;
        socket.write('{"na');
        held.push(socket);
      }
      const extra = await openSocket(capped.url);
      const ended = await new Promise<string>((resolve) => {
        let received = '';
        extra.on('data', (chunk) => (received += chunk));
        extra.on('close', () => resolve(received));
        extra.on('error', () => {});
        extra.write(`GET /api/v2/users/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${capped.adminToken}\r\n\r\n`);
      });
      assert.equal(ended, '', 'a connection over the cap gets no answer');
      await capped.waitForOutput(/every connection busy/);
      for (const socket of held) socket.destroy();
      // the settings also come from the environment: this server lists one origin through it
      let response: ApiResponse | undefined;
      while (response === undefined) {
        response = await capped.api.get('/api/v2/users/', { headers: { origin: APP } }).catch(() => undefined);
      }
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('access-control-allow-origin'), APP);
    } finally {
      await capped.stop();
    }
  });

  it('refuses settings that cannot work', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--cors-origins', 'https://app.example.com/path'], /not an origin/],
      [['--headers-timeout-ms', '0'], /at least 1/],
      [['--headers-timeout-ms', '5000', '--request-timeout-ms', '1000'], /must not exceed/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(['serve', '--db', ':memory:', '--port', '0', ...args]);
      assert.notEqual(result.code, 0, args.join(' '));
      assert.match(result.stderr, message, args.join(' '));
    }
  });
});
