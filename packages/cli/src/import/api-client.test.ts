import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { ImportApiClient, StopError } from './api-client.ts';

type Handler = (request: IncomingMessage, response: ServerResponse, attempt: number) => void;

/** A real HTTP server answering with `handler`; `attempt` counts requests from 1. */
async function serve(handler: Handler): Promise<{ url: string; attempts: () => number }> {
  let attempts = 0;
  const server = createServer((request, response) => handler(request, response, ++attempts));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, attempts: () => attempts };
}

const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};

function client(url: string, waits: number[] = [], retryDelaysMs = [10, 20, 40]) {
  return new ImportApiClient(url, 'lpat_test', {
    retryDelaysMs,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
}

describe('the import API client', () => {
  it('waits out every 429 for its Retry-After and never gives up on it', async () => {
    const server = await serve((request, response, attempt) => {
      assert.equal(request.headers.authorization, 'Bearer lpat_test');
      if (attempt <= 7) return json(response, 429, { error: { code: 'rate_limited' } }, { 'retry-after': '3' });
      json(response, 200, { ok: true });
    });
    const waits: number[] = [];
    const answer = await client(server.url, waits).get('/api/v2/users/');
    assert.deepEqual(answer.body, { ok: true });
    assert.deepEqual(waits, [3000, 3000, 3000, 3000, 3000, 3000, 3000]);
  });

  it('retries a 5xx and a dropped connection with growing waits, then stops', async () => {
    const server = await serve((request, response, attempt) => {
      if (attempt === 1) return request.socket.destroy();
      if (attempt === 2) return json(response, 503, { error: { code: 'service_unavailable' } });
      json(response, 202, { id: 'job' });
    });
    const waits: number[] = [];
    const answer = await client(server.url, waits).post('/api/v2/users/bulk/', { users: [] });
    assert.equal(answer.status, 202);
    assert.equal(waits.length, 2);
    assert.ok(waits[0]! >= 7 && waits[0]! <= 13 && waits[1]! >= 15 && waits[1]! <= 25, `jittered backoff: ${waits}`);

    const down = await serve((_request, response) => json(response, 500, { error: { code: 'internal_error' } }));
    await assert.rejects(
      client(down.url).get('/x'),
      (error: Error) => error instanceof StopError && /answered 500 internal_error; gave up after 4 attempts/.test(error.message),
    );
    assert.equal(down.attempts(), 4);
  });

  it('stops at once on 401 and 403, and hands other answers back', async () => {
    const server = await serve((request, response) => {
      if (request.url === '/denied') return json(response, 403, { error: { code: 'insufficient_scope', message: 'needs users:write' } });
      if (request.url === '/who') return json(response, 401, { error: { code: 'invalid_token', message: 'no' } });
      json(response, 422, { error: { code: 'validation_error' } });
    });
    await assert.rejects(
      client(server.url).post('/denied', {}),
      /refused the token for POST \/denied: 403 insufficient_scope needs users:write/,
    );
    await assert.rejects(client(server.url).get('/who'), StopError);
    assert.equal((await client(server.url).patch('/other', {})).status, 422);
    assert.equal(server.attempts(), 3);
  });

  it('ends a wait for Retry-After when told to stop', async () => {
    const server = await serve((_request, response) => json(response, 429, { error: { code: 'rate_limited' } }, { 'retry-after': '60' }));
    const stop = new AbortController();
    const waiting = new ImportApiClient(server.url, 'lpat_test', { signal: stop.signal }).get('/x');
    setTimeout(() => stop.abort(), 20);
    await assert.rejects(waiting, (error: Error) => error instanceof StopError && /interrupted/.test(error.message));
  });

  it('stops when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await assert.rejects(
      client(`http://127.0.0.1:${port}`, [], [1]).get('/x'),
      /cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\); gave up after 2 attempts/,
    );
  });
});
