/**
 * What adversarial trials found: one client holding every connection slot, bodies nested deep
 * enough to overflow a recursive scan, rate limits multiplied by minting tokens, searches that
 * stall everyone, lone surrogates, a HEAD refusal with a body, and webhook URLs stored as sent.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { openSocket, rawRequest, readResponse } from '../helpers/raw-http.ts';
import { cliToken, expectError, expectFieldError, uniqueEmail, useServer, userWithToken } from '../helpers/server.ts';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('bodies that would crash a recursive walk', () => {
  const server = useServer();

  it('refuses a body nested deeper than 64 levels with 400 on every bulk route a caller may use, a learner too; others are 403 unread', async () => {
    const learner = await userWithToken(server, 'user');
    const routes: Array<[string, string, string]> = [
      ['POST', '/api/v2/users/bulk/', 'users'],
      ['POST', '/api/v2/assignments/bulk/', 'assignments'],
      ['POST', '/api/v2/enrollments/bulk/', 'enrollments'],
      ['PATCH', '/api/v2/events/bulk/', 'events'],
      ['PATCH', '/api/v2/event-series/bulk/', 'event_series'],
    ];
    // a learner may submit assignments and enrollments; the other routes refuse its role before
    // reading the body at all (the router checks the declared scope first)
    const learnerMay = new Set(['assignments', 'enrollments']);
    for (const [method, path, key] of routes) {
      for (const token of [learner.token, server.adminToken]) {
        const response = await server.api.request(method, path, {
          raw: `{"${key}":${nested(3000)}}`,
          headers: { 'content-type': 'application/json' },
          token,
        });
        if (token === learner.token && !learnerMay.has(key)) {
          expectError(response, 403, 'forbidden');
          continue;
        }
        expectError(response, 400, 'bad_request');
        assert.match(response.body.error.message, /more than 64 levels/, path);
      }
    }
    // 64 levels is within the limit: the job takes it, and its item fails on its own
    const within = await server.api.request('POST', '/api/v2/users/bulk/', {
      raw: `{"users":${nested(63)}}`,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(within.status, 202, within.text);
  });

  it('refuses lone UTF-16 surrogates like NUL, and keeps pairs', async () => {
    for (const name of ['\\ud800zz', 'a\\udc00', '\\udfff\\ud800']) {
      const response = await server.api.request('POST', '/api/v2/users/', {
        raw: `{"email":"${uniqueEmail('surrogate')}","name":"${name}"}`,
        headers: { 'content-type': 'application/json' },
      });
      expectFieldError(response, 'name');
      assert.match(response.body.error.field_errors.name[0], /unpaired UTF-16 surrogate/);
    }
    const paired = await server.api.post('/api/v2/users/', { email: uniqueEmail('pair'), name: 'Smile \ud83d\ude00' });
    assert.equal(paired.status, 201, paired.text);
    assert.equal(paired.body.name, 'Smile 😀');
  });

  it('answers a HEAD refused for its headers (431) without a body', async () => {
    const big = 'a'.repeat(20_000);
    const head = await rawRequest(server.url, `HEAD /api/v2/users/ HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`);
    assert.equal(head.status, 431);
    assert.equal(head.text, '');
    const get = await rawRequest(server.url, `GET /api/v2/users/ HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`);
    assert.equal(get.status, 431);
    assert.equal(get.body.error.code, 'headers_too_large');
  });
});

describe('webhook URLs', () => {
  const server = useServer({ args: ['--allow-private-webhook-targets'] });

  it('stores the URL as the checking parser reads it, and refuses backslashes and credentials', async () => {
    for (const url of [
      'https://93.184.216.34\\@127.0.0.1/',
      'http://127.0.0.1\\evil/',
      'http://user@127.0.0.1/',
      'http://u:p@127.0.0.1/',
    ]) {
      const response = await server.api.post('/public_api/v2/webhooks/', { url, events: ['assignment.created'] });
      expectFieldError(response, 'url');
    }
    const created = await server.api.post('/public_api/v2/webhooks/', {
      url: 'HTTP://127.0.0.1:80/a/./b/../c?x=1',
      events: ['assignment.created'],
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.url, 'http://127.0.0.1/a/c?x=1');
    const updated = await server.api.patch(`/public_api/v2/webhooks/${created.body.id}/`, { url: 'http://[0:0:0:0:0:0:0:1]:8080/a hook' });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.url, 'http://[::1]:8080/a%20hook');
    assert.equal((await server.api.get(`/public_api/v2/webhooks/${created.body.id}/`)).body.url, 'http://[::1]:8080/a%20hook');
  });
});

describe('rate limits that tokens cannot multiply', () => {
  // a day-long window, so that no test straddles two
  const server = useServer({
    args: ['--rate-limit', '5', '--rate-limit-per-user', '8', '--max-tokens-per-user', '3', '--rate-limit-window', '86400'],
  });

  async function tokenFor(email: string): Promise<string> {
    return (await cliToken(server.dbFile, email, 'extra')).token;
  }

  it("caps a user's tokens together, keeping each token's window and headers as they are", async () => {
    const learner = await userWithToken(server, 'user');
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await learner.api.get('/api/v2/me/')).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);

    const second = server.api.withToken(await tokenFor(learner.user.email));
    const allowed = await second.get('/api/v2/me/');
    assert.equal(allowed.status, 200, allowed.text);
    assert.equal(allowed.headers.get('x-ratelimit-limit'), '5');
    assert.equal(allowed.headers.get('x-ratelimit-remaining'), '4');
    for (let i = 0; i < 2; i++) assert.equal((await second.get('/api/v2/me/')).status, 200);
    // eight requests of this user have been allowed in the window: the ninth is refused, although
    // this token has used three of its five
    const refused = await second.get('/api/v2/me/');
    expectError(refused, 429, 'rate_limited');
    assert.match(refused.body.error.message, /this user's tokens together is 8/);
    assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
    assert.equal(refused.headers.get('x-ratelimit-limit'), '5');
    // refused requests use up the token's own window too; the message keeps naming the ceiling
    // reached, on the in-memory counters and on the shared ones alike
    for (let i = 0; i < 4; i++) {
      const again = await second.get('/api/v2/me/');
      expectError(again, 429, 'rate_limited');
      assert.match(again.body.error.message, /this user's tokens together is 8/);
    }

    // another user is not affected
    const other = await userWithToken(server, 'user');
    assert.equal((await other.api.get('/api/v2/me/')).status, 200);
  });

  it('refuses a live token over the cap with 422 on name, counting neither revoked nor expired ones', async () => {
    // the admin's own token is limited to five requests in this window too: this is its fourth
    const email = (await server.api.post('/api/v2/users/', { email: uniqueEmail('capped'), name: 'Capped' })).body.email;
    // the command line is not the server: it keeps its own (default) cap of 50
    const tokens = [await tokenFor(email), await tokenFor(email), await tokenFor(email)];
    const overApi = await server.api.withToken(tokens[0]!).post('/api/v2/api-tokens/', { name: 'one more' });
    expectFieldError(overApi, 'name');
    assert.match(overApi.body.error.field_errors.name[0], /at most 3 live tokens/);
    // revoking one makes room
    const listed = await server.api.withToken(tokens[0]!).get('/api/v2/api-tokens/');
    const revoked = await server.api.withToken(tokens[0]!).delete(`/api/v2/api-tokens/${listed.body.data[1].public_id}/`);
    assert.equal(revoked.status, 204, revoked.text);
    const again = await server.api.withToken(tokens[0]!).post('/api/v2/api-tokens/', { name: 'after revoking' });
    assert.equal(again.status, 201, again.text);
  });
});

/** A socket from another loopback address, so one client's sockets can be told from another's. */
function socketFrom(localAddress: string, url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress }, () => resolve(socket));
    socket.on('error', reject);
  });
}

const closedWithin = (socket: Socket, ms: number) =>
  new Promise<boolean>((resolve) => {
    if (socket.destroyed || socket.readableEnded) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

describe('one client cannot take every connection', () => {
  const server = useServer({
    instances: 1,
    args: [
      '--max-connections',
      '30',
      '--max-connections-per-address',
      '10',
      '--headers-timeout-ms',
      '1500',
      '--request-timeout-ms',
      '3000',
    ],
  });

  it('closes a client address over its share at once, while other clients keep being served', { timeout: 30_000 }, async () => {
    const attacker: Socket[] = [];
    let refused = 0;
    const trickle = setInterval(() => {
      for (const socket of attacker) if (!socket.destroyed) socket.write('X-Slow: 1\r\n');
    }, 200);
    try {
      for (let i = 0; i < 40; i++) {
        const socket = await socketFrom('127.0.0.2', server.url);
        socket.on('error', () => {});
        socket.write('GET /api/v2/users/ HTTP/1.1\r\nHost: x\r\n');
        attacker.push(socket);
      }
      for (const socket of attacker.slice(10)) if (await closedWithin(socket, 1000)) refused++;
      assert.equal(refused, 30, 'every connection past the tenth from one address is closed at once');
      const statuses = [];
      for (let i = 0; i < 20; i++) statuses.push((await server.api.get('/api/v2/users/')).status);
      assert.deepEqual(new Set(statuses), new Set([200]));
      await server.waitForOutput(/connection limit per address reached/);
    } finally {
      clearInterval(trickle);
      for (const socket of attacker) socket.destroy();
    }
  });

  it('closes a connection whose headers trickle in at the headers deadline, however often bytes arrive', { timeout: 20_000 }, async () => {
    const socket = await openSocket(server.url);
    const answer = readResponse(socket);
    const started = performance.now();
    socket.write('GET /api/v2/users/ HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 100);
    try {
      const response = await answer;
      assert.equal(response.status, 408);
      assert.ok(performance.now() - started < 5000, 'the deadline is not extended by each header line');
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });
});

describe('searches take turns', () => {
  const server = useServer({ args: ['--search-concurrency', '1'], instances: 1 });

  it('refuses searches past the queue with 503 and Retry-After, and serves other requests meanwhile', { timeout: 30_000 }, async () => {
    for (let i = 0; i < 20; i++) await server.api.post('/api/v2/users/', { email: uniqueEmail('searched'), name: `Searched ${i}` });
    const request = (path: string) =>
      `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.adminToken}\r\nConnection: close\r\n\r\n`;
    // every connection is open before any request is written, so the requests arrive together
    // and more of them wait than the queue holds (one running, eight waiting): ninety searches,
    // so that some overlap even when the server answers each as fast as it reads the next
    const sockets = await Promise.all(Array.from({ length: 91 }, () => openSocket(server.url)));
    const answers = sockets.map((socket) => readResponse(socket));
    sockets.forEach((socket, i) =>
      socket.write(request(i === 20 ? '/api/v2/users/?page_size=1' : '/api/v2/users/?search=searched&page_size=100')),
    );
    const responses = await Promise.all(answers);
    for (const socket of sockets) socket.destroy();
    const [plain] = responses.splice(20, 1);
    assert.equal(plain!.status, 200, 'a plain list is not held back by the searches');
    const unavailable = responses.filter((response) => response.status === 503);
    assert.ok(unavailable.length > 0, 'searches beyond the one running and the eight waiting were refused');
    assert.ok(responses.some((response) => response.status === 200));
    for (const response of responses) assert.ok([200, 503].includes(response.status), response.text);
    for (const response of unavailable) {
      assert.equal(response.body.error.code, 'service_unavailable');
      assert.equal(response.headers['retry-after'], '1');
    }
    // once the burst is over, searches are served again
    assert.equal((await server.api.get('/api/v2/users/?search=searched')).status, 200);
  });
});
