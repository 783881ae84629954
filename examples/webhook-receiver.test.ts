import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { generateWebhookSecret, webhookHeaders } from '@lectern/core';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

describe('examples/webhook-receiver.ts', () => {
  const secret = generateWebhookSecret();
  let url: string;
  let output = '';
  let child: ReturnType<typeof spawn>;
  before(async () => {
    const port = await freePort();
    child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', new URL('./webhook-receiver.ts', import.meta.url).pathname],
      {
        env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    child.stdout!.on('data', (chunk) => (output += chunk));
    await new Promise<void>((resolve) => child.stdout!.on('data', () => output.includes('Receiving') && resolve()));
    url = `http://127.0.0.1:${port}/webhooks`;
  });
  after(() => {
    child.kill();
  });

  const post = (body: string, headers: Record<string, string>) =>
    fetch(url, { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } });

  it('accepts a signed delivery once, and acknowledges a repeat without handling it again', async () => {
    const id = 'msg_0123456789ABCDEFGHJKMNPQRS';
    const body = JSON.stringify({
      id,
      type: 'article.created',
      api_version: '2.0',
      created_at: new Date().toISOString(),
      data: { object: { name: 'x' } },
    });
    const handledCount = () => output.split(id).length - 1;
    assert.equal((await post(body, webhookHeaders({ secret, id, timestamp: new Date(), body }))).status, 204);
    // the receiver answers first and logs after, so its line may trail the answer
    for (let waited = 0; handledCount() === 0 && waited < 2000; waited += 10) await sleep(10);
    assert.equal(handledCount(), 1);
    assert.equal((await post(body, webhookHeaders({ secret, id, timestamp: new Date(), body }))).status, 204);
    await sleep(200);
    assert.equal(handledCount(), 1);
  });

  it('rejects a wrong signature or a stale timestamp with 401', async () => {
    const id = 'msg_1123456789ABCDEFGHJKMNPQRS';
    const body = '{"id":"x"}';
    const forged = await post(body, webhookHeaders({ secret: generateWebhookSecret(), id, timestamp: new Date(), body }));
    assert.equal(forged.status, 401);
    const stale = await post(body, webhookHeaders({ secret, id, timestamp: Math.floor(Date.now() / 1000) - 3600, body }));
    assert.equal(stale.status, 401);
    assert.match(await stale.text(), /too old/);
  });

  it('answers an authentic delivery whose body is not JSON with 400, not as a forgery', async () => {
    const id = 'msg_2123456789ABCDEFGHJKMNPQRS';
    const body = 'not json';
    const response = await post(body, webhookHeaders({ secret, id, timestamp: new Date(), body }));
    assert.equal(response.status, 400);
    assert.match(await response.text(), /not valid JSON/);
  });
});
