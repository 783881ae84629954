import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DeliverySender, publicOnlyLookup, type SignedRequest } from './delivery-sender.ts';

/** A resolver answering from a fixed table, in the shape node:dns hands to net.connect. */
function fakeResolve(table: Record<string, LookupAddress[]>) {
  return ((hostname: string, _options: unknown, callback: (error: Error | null, addresses: LookupAddress[]) => void) => {
    const addresses = table[hostname];
    if (!addresses) callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    else callback(null, addresses);
  }) as unknown as Parameters<typeof publicOnlyLookup>[0];
}

const lookupWith = (table: Record<string, LookupAddress[]>, hostname: string, all: boolean) =>
  new Promise<{ error: (Error & { code?: string }) | null; result: unknown }>((resolve) => {
    publicOnlyLookup(fakeResolve(table))(hostname, { all }, ((error: Error | null, address: unknown, family?: number) =>
      resolve({ error, result: all ? address : { address, family } })) as never);
  });

describe('publicOnlyLookup', () => {
  const table = {
    'public.example': [{ address: '93.184.215.14', family: 4 }],
    'both.example': [
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      { address: '93.184.215.14', family: 4 },
    ],
    'rebound.example': [
      { address: '93.184.215.14', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ],
    'mapped.example': [{ address: '::ffff:10.0.0.1', family: 6 }],
  };

  it('hands public addresses to the connection, in either callback form', async () => {
    assert.deepEqual(await lookupWith(table, 'public.example', false), { error: null, result: { address: '93.184.215.14', family: 4 } });
    assert.deepEqual(await lookupWith(table, 'both.example', true), { error: null, result: table['both.example'] });
  });

  it('refuses to connect when any address is not public', async () => {
    for (const host of ['rebound.example', 'mapped.example']) {
      const { error } = await lookupWith(table, host, true);
      assert.equal(error?.code, 'ENONPUBLIC');
      assert.match(error!.message, new RegExp(`Host ${host} resolves to a non-public address`));
    }
  });

  it('passes resolver errors through', async () => {
    assert.equal((await lookupWith(table, 'missing.example', false)).error?.code, 'ENOTFOUND');
  });
});

describe('DeliverySender', () => {
  let server: Server;
  let base: string;
  const seen: Array<{ path: string; headers: Record<string, unknown>; body: string }> = [];
  before(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push({ path: request.url!, headers: request.headers, body });
        if (request.url === '/ok') response.writeHead(204).end();
        else if (request.url === '/big') response.writeHead(200).end('x'.repeat(100_000));
        else if (request.url === '/busy') response.writeHead(503, { 'retry-after': '30' }).end('later');
        else if (request.url === '/redirect') response.writeHead(307, { location: '/ok' }).end();
        // '/hang' never answers
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const signed = (path: string): SignedRequest => ({
    url: base + path,
    headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,abc' },
    body: '{"a":1}',
  });
  const never = new AbortController().signal;

  it('posts the signed JSON body and reports the answer', async () => {
    const sender = new DeliverySender({ timeoutMs: 2000, allowPrivateTargets: true });
    const result = await sender.send(signed('/ok'), never);
    assert.deepEqual(
      { ...(result as object), durationMs: 0 },
      { status: 204, retryAfter: null, responseBody: '', error: null, durationMs: 0 },
    );
    const request = seen.find((r) => r.path === '/ok')!;
    assert.equal(request.body, '{"a":1}');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers['webhook-id'], 'msg_1');
    assert.equal(request.headers['webhook-signature'], 'v1,abc');
    await sender.close();
  });

  it('keeps only the first KiB of an answer, and reads Retry-After', async () => {
    const sender = new DeliverySender({ timeoutMs: 2000, allowPrivateTargets: true });
    const big = (await sender.send(signed('/big'), never)) as { responseBody: string };
    assert.equal(big.responseBody.length, 1024);
    const busy = await sender.send(signed('/busy'), never);
    assert.deepEqual([(busy as any).status, (busy as any).retryAfter, (busy as any).responseBody], [503, '30', 'later']);
    await sender.close();
  });

  it('does not follow redirects', async () => {
    const sender = new DeliverySender({ timeoutMs: 2000, allowPrivateTargets: true });
    const before = seen.filter((r) => r.path === '/ok').length;
    assert.equal(((await sender.send(signed('/redirect'), never)) as any).status, 307);
    assert.equal(seen.filter((r) => r.path === '/ok').length, before);
    await sender.close();
  });

  it('times out, and tells an interruption apart', async () => {
    const sender = new DeliverySender({ timeoutMs: 150, allowPrivateTargets: true });
    const result = (await sender.send(signed('/hang'), never)) as any;
    assert.equal(result.status, null);
    assert.match(result.error, /No complete answer within 0.15 s/);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 50);
    assert.equal(await sender.send(signed('/hang'), stop.signal), 'interrupted');
    await sender.close();
  });

  it('refuses to connect to a name resolving to a non-public address unless allowed', async () => {
    const sender = new DeliverySender({ timeoutMs: 2000, allowPrivateTargets: false });
    const result = (await sender.send({ ...signed('/ok'), url: signed('/ok').url.replace('127.0.0.1', 'localhost') }, never)) as any;
    assert.equal(result.status, null);
    assert.match(result.error, /non-public address/);
    await sender.close();
  });
});
