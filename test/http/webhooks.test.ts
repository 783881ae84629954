import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import {
  assignedArticle,
  expectError,
  expectFieldError,
  startServer,
  userWithToken,
  type ApiResponse,
  type TestServer,
  useServer,
} from '../helpers/server.ts';
import { attemptsUntil } from '../helpers/webhook-attempts.ts';
import { signatureHeaders, statusSequence, WebhookReceiver, type ReceivedWebhook } from '../helpers/webhook-receiver.ts';

const BASE = '/public_api/v2/webhooks';
const LOCAL_TARGETS = ['--allow-private-webhook-targets', '--webhook-retry-schedule', '1,1,1'];

/** The messages of a 422 on `field`. */
const fieldMessages = (response: ApiResponse, field: string): string[] => {
  expectFieldError(response, field);
  return response.body.error.field_errors[field];
};

/** Verifies a delivery exactly as a receiver would, with the standardwebhooks package. */
const verify = (secret: string, request: ReceivedWebhook) => new Webhook(secret).verify(request.body, signatureHeaders(request)) as any;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function subscribe(server: TestServer, receiver: WebhookReceiver, path: string, fields: Record<string, unknown> = {}) {
  const response = await server.api.post(`${BASE}/`, { url: receiver.url(path), events: ['article.*'], ...fields });
  assert.equal(response.status, 201, response.text);
  return response.body;
}

async function ping(server: TestServer, id: string): Promise<string> {
  const response = await server.api.post(`${BASE}/${id}/test/`);
  assert.equal(response.status, 202, response.text);
  assert.deepEqual(Object.keys(response.body), ['event_id']);
  assert.match(response.body.event_id, /^msg_[0-9A-HJKMNP-TV-Z]{26}$/);
  return response.body.event_id;
}

describe('webhooks: subscriptions', () => {
  const server = useServer({ args: LOCAL_TARGETS });
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await receiver.close();
  });

  it('serves the event catalog grouped by family', async () => {
    const response = await server.api.get(`${BASE}/event-catalog/`);
    assert.equal(response.status, 200, response.text);
    const families = response.body.data.map((f: any) => f.family);
    assert.deepEqual(families.slice(0, 2), ['content_item', 'article']);
    assert.deepEqual(families.slice(-2), ['assignment', 'enrollment']);
    const video = response.body.data.find((f: any) => f.family === 'video');
    assert.ok(video.event_types.some((t: any) => t.name === 'video.ready' && typeof t.description === 'string'));
    assert.equal((await server.api.get(`${BASE}/event-catalog`)).status, 200);
  });

  it('creates with the secret, lists without it, gets it back, and expands wildcards', async () => {
    const created = await server.api.post(`${BASE}/`, {
      url: receiver.url('/crud'),
      events: ['video.*', 'assignment.completed', 'content_item.created', 'assignment.completed'],
      description: 'LMS sync',
    });
    assert.equal(created.status, 201, created.text);
    const hook = created.body;
    assert.match(hook.id, /^ep_[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.deepEqual(hook.events, [
      'content_item.created',
      'video.created',
      'video.updated',
      'video.deleted',
      'video.archived',
      'video.unarchived',
      'video.ready',
      'video.errored',
      'assignment.completed',
    ]);
    assert.equal(hook.description, 'LMS sync');
    assert.equal(hook.is_active, true);
    assert.equal(hook.disabled_reason, null);
    assert.ok(created.headers.get('etag'));

    const got = await server.api.get(`${BASE}/${hook.id}/`);
    assert.deepEqual(got.body, hook);
    const listed = await server.api.get(`${BASE}/?page_size=100`);
    const entry = listed.body.data.find((h: any) => h.id === hook.id);
    assert.ok(entry);
    const { secret, ...withoutSecret } = hook;
    assert.ok(secret);
    assert.deepEqual(entry, withoutSecret);
    assert.equal(typeof listed.body.meta.total_count, 'number');
  });

  it('validates events: required, no catch-all, known names and families only', async () => {
    const url = receiver.url('/invalid');
    expectFieldError(await server.api.post(`${BASE}/`, { url }), 'events');
    expectFieldError(await server.api.post(`${BASE}/`, { url, events: [] }), 'events');
    assert.match(fieldMessages(await server.api.post(`${BASE}/`, { url, events: ['*'] }), 'events')[0]!, /catch-all/);
    const unknown = fieldMessages(await server.api.post(`${BASE}/`, { url, events: ['video.exploded', 'podcast.*', 'video'] }), 'events');
    assert.equal(unknown.length, 3);
    expectFieldError(await server.api.post(`${BASE}/`, { url, events: ['webhook.ping'] }), 'events');
    expectFieldError(await server.api.post(`${BASE}/`, { url, events: ['article.*'], secret: 'whsec_x' }), 'secret');
    expectFieldError(await server.api.post(`${BASE}/`, { events: ['article.*'] }), 'url');
    expectFieldError(await server.api.post(`${BASE}/`, { url: 'ftp://example.com/', events: ['article.*'] }), 'url');
  });

  it('patches url, events, description and is_active, honouring If-Match', async () => {
    const hook = await subscribe(server, receiver, '/patch');
    const patched = await server.api.patch(`${BASE}/${hook.id}/`, {
      url: receiver.url('/patched'),
      events: ['assignment.*'],
      description: 'changed',
      is_active: false,
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.url, receiver.url('/patched'));
    assert.equal(patched.body.events.length, 8);
    assert.equal(patched.body.description, 'changed');
    assert.equal(patched.body.is_active, false);
    assert.equal(patched.body.secret, hook.secret);
    expectFieldError(await server.api.patch(`${BASE}/${hook.id}/`, { events: [] }), 'events');
    expectError(
      await server.api.patch(`${BASE}/${hook.id}/`, { description: 'x' }, { headers: { 'if-match': '"stale"' } }),
      412,
      'precondition_failed',
    );
    const etag = (await server.api.get(`${BASE}/${hook.id}/`)).headers.get('etag')!;
    assert.equal((await server.api.patch(`${BASE}/${hook.id}/`, { is_active: true }, { headers: { 'if-match': etag } })).status, 200);
  });

  it('deletes: then 404 for every route, and a second delete is 404', async () => {
    const hook = await subscribe(server, receiver, '/delete');
    assert.equal((await server.api.delete(`${BASE}/${hook.id}/`)).status, 204);
    expectError(await server.api.get(`${BASE}/${hook.id}/`), 404, 'not_found');
    expectError(await server.api.delete(`${BASE}/${hook.id}/`), 404, 'not_found');
    expectError(await server.api.post(`${BASE}/${hook.id}/test/`), 404, 'not_found');
    expectError(await server.api.get(`${BASE}/${hook.id}/deliveries/`), 404, 'not_found');
    assert.ok(!(await server.api.get(`${BASE}/?page_size=100`)).body.data.some((h: any) => h.id === hook.id));
    expectError(await server.api.get(`${BASE}/not-an-id/`), 404, 'not_found');
    expectError(await server.api.get(`${BASE}/ep_00000000000000000000000000/`), 404, 'not_found');
  });

  it('is for admins only: organizers are forbidden, a token without the scope is insufficient', async () => {
    const organizer = await userWithToken(server, 'organizer');
    expectError(await organizer.api.get(`${BASE}/`), 403, 'forbidden');
    expectError(await organizer.api.get(`${BASE}/event-catalog/`), 403, 'forbidden');
    expectError(await organizer.api.post(`${BASE}/`, { url: receiver.url(), events: ['article.*'] }), 403, 'forbidden');
    const reader = await userWithToken(server, 'admin', 'webhooks:read');
    assert.equal((await reader.api.get(`${BASE}/`)).status, 200);
    expectError(await reader.api.post(`${BASE}/`, { url: receiver.url(), events: ['article.*'] }), 403, 'insufficient_scope');
    expectError(await server.api.get(`${BASE}/`, { token: null }), 401, 'unauthenticated');
  });
});

describe('webhooks: target URL policy without the allow flag', () => {
  const server = useServer();

  it('accepts only https on public addresses', async () => {
    for (const url of [
      'http://example.com/hook',
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://172.16.0.1/hook',
      'https://192.168.1.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hook',
      'https://224.0.0.1/hook',
      'https://0.0.0.0/hook',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[fe80::1]/hook',
      'https://localhost/hook',
      'https://2130706433/hook',
    ]) {
      expectFieldError(await server.api.post(`${BASE}/`, { url, events: ['article.*'] }), 'url');
    }
    const accepted = await server.api.post(`${BASE}/`, { url: 'https://93.184.215.14/hook', events: ['article.*'] });
    assert.equal(accepted.status, 201, accepted.text);
    expectFieldError(await server.api.patch(`${BASE}/${accepted.body.id}/`, { url: 'https://10.0.0.1/' }), 'url');
  });
});

describe('webhooks: disabled by configuration', () => {
  const server = useServer({ args: ['--disable-webhooks'] });

  it('answers 503 service_unavailable on every route', async () => {
    const id = 'ep_00000000000000000000000000';
    const calls: Array<[string, string]> = [
      ['GET', `${BASE}/event-catalog/`],
      ['GET', `${BASE}/`],
      ['POST', `${BASE}/`],
      ['GET', `${BASE}/${id}/`],
      ['PATCH', `${BASE}/${id}/`],
      ['DELETE', `${BASE}/${id}/`],
      ['POST', `${BASE}/${id}/rotate-secret/`],
      ['POST', `${BASE}/${id}/test/`],
      ['GET', `${BASE}/${id}/deliveries/`],
    ];
    for (const [method, path] of calls) {
      const body = method === 'POST' || method === 'PATCH' ? { url: 'https://example.com/', events: ['article.*'] } : undefined;
      expectError(await server.api.request(method, path, { body }), 503, 'service_unavailable');
    }
  });
});

describe('webhooks: delivery', () => {
  const server = useServer({ args: LOCAL_TARGETS });
  let receiver: WebhookReceiver;
  afterEach(async () => {
    await receiver?.close();
  });

  it('delivers a ping, signed per Standard Webhooks, with the envelope of the specification', async () => {
    receiver = await WebhookReceiver.start();
    const hook = await subscribe(server, receiver, '/ping');
    const eventId = await ping(server, hook.id);
    const [request] = await receiver.waitFor((r) => r.path === '/ping');
    assert.equal(request!.headers['webhook-id'], eventId);
    assert.match(String(request!.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
    assert.ok(Math.abs(Number(request!.headers['webhook-timestamp']) - Date.now() / 1000) < 10);
    assert.match(String(request!.headers['content-type']), /^application\/json/);
    const payload = verify(hook.secret, request!);
    assert.deepEqual(payload, {
      id: eventId,
      type: 'webhook.ping',
      api_version: '2.0',
      created_at: payload.created_at,
      data: { object: { webhook_id: hook.id, message: 'ping' } },
    });
    assert.match(payload.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const [attempt] = await attemptsUntil(server, hook.id, (a) => a.length === 1);
    assert.deepEqual(Object.keys(attempt).sort(), [
      'attempt',
      'created_at',
      'duration_ms',
      'error',
      'event_id',
      'event_type',
      'id',
      'next_attempt_at',
      'payload',
      'request_headers',
      'response_body',
      'response_status',
      'status',
    ]);
    assert.equal(attempt.status, 'succeeded');
    assert.equal(attempt.response_status, 200);
    assert.equal(attempt.response_body, 'ok');
    assert.equal(attempt.event_id, eventId);
    assert.equal(attempt.next_attempt_at, null);
  });

  it('retries a receiver that answers 500 twice, then 200: three attempts, newest first', async () => {
    receiver = await WebhookReceiver.start();
    receiver.respond = statusSequence(500, 500);
    const hook = await subscribe(server, receiver, '/flaky');
    const eventId = await ping(server, hook.id);
    const requests = await receiver.waitFor(() => true, 3);
    for (const request of requests) {
      assert.equal(request.headers['webhook-id'], eventId);
      verify(hook.secret, request);
    }
    // the schedule is 1 s ±20 %; the second retry cannot come before 0.8 s after the first
    assert.ok(requests[1]!.at - requests[0]!.at >= 700, `retried after ${requests[1]!.at - requests[0]!.at} ms`);
    const attempts = await attemptsUntil(server, hook.id, (a) => a.length === 3);
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.status, a.response_status]),
      [
        [3, 'succeeded', 200],
        [2, 'failed', 500],
        [1, 'failed', 500],
      ],
    );
    assert.equal(attempts[1].response_body, 'answer 2');
    assert.match(attempts[2].error, /500/);
    assert.ok(attempts[2].next_attempt_at > attempts[2].created_at);
    assert.equal(attempts[0].next_attempt_at, null);

    const first = await server.api.get(`${BASE}/${hook.id}/deliveries/?page_size=2`);
    assert.deepEqual(first.body.meta, { page_size: 2, next_cursor: attempts[1].id });
    const second = await server.api.get(`${BASE}/${hook.id}/deliveries/?page_size=2&cursor=${first.body.meta.next_cursor}`);
    assert.deepEqual(
      second.body.data.map((a: any) => a.attempt),
      [1],
    );
    assert.equal(second.body.meta.next_cursor, null);
    expectError(await server.api.get(`${BASE}/${hook.id}/deliveries/?cursor=bogus`), 400, 'bad_request');
    expectError(await server.api.get(`${BASE}/${hook.id}/deliveries/?page_size=0`), 400, 'bad_request');
    const byEvent = await server.api.get(`${BASE}/${hook.id}/deliveries/?event_id=${eventId}`);
    assert.equal(byEvent.body.data.length, 3);
  });

  it('gives up after the last scheduled attempt', async () => {
    receiver = await WebhookReceiver.start();
    receiver.respond = () => ({ status: 503 });
    const hook = await subscribe(server, receiver, '/down');
    await ping(server, hook.id);
    const attempts = await attemptsUntil(server, hook.id, (a) => a.length === 4);
    assert.ok(attempts.every((a) => a.status === 'failed'));
    // the last attempt schedules none: nothing more can come, so the count is final now
    assert.equal(attempts[0].next_attempt_at, null);
    assert.equal(receiver.received.length, 4);
    assert.equal((await server.api.get(`${BASE}/${hook.id}/`)).body.is_active, true);
  });

  it('disables the endpoint at once on 410 Gone', async () => {
    receiver = await WebhookReceiver.start();
    receiver.respond = () => ({ status: 410 });
    const hook = await subscribe(server, receiver, '/gone');
    await ping(server, hook.id);
    const [attempt] = await attemptsUntil(server, hook.id, (a) => a.length === 1);
    assert.equal(attempt.status, 'failed');
    assert.equal(attempt.response_status, 410);
    assert.equal(attempt.next_attempt_at, null);
    const after = (await server.api.get(`${BASE}/${hook.id}/`)).body;
    assert.equal(after.is_active, false);
    assert.match(after.disabled_reason, /410/);
    // no next attempt and an inactive endpoint: nothing more can come
    assert.equal(receiver.received.length, 1);

    const enabled = await server.api.patch(`${BASE}/${hook.id}/`, { is_active: true });
    assert.equal(enabled.body.is_active, true);
    assert.equal(enabled.body.disabled_reason, null);
  });

  it('does not follow redirects', async () => {
    receiver = await WebhookReceiver.start();
    receiver.respond = (request) =>
      request.path === '/moved' ? { status: 302, headers: { location: receiver.url('/elsewhere') } } : { status: 200 };
    const hook = await subscribe(server, receiver, '/moved');
    await ping(server, hook.id);
    const [attempt] = await attemptsUntil(server, hook.id, (a) => a.length >= 1);
    assert.equal(attempt.status, 'failed');
    assert.equal(attempt.response_status, 302);
    assert.match(attempt.error, /redirect/);
    assert.equal(receiver.to('/elsewhere').length, 0);
  });

  it('rotates the secret: the old one fails verification at once, the new one passes', async () => {
    receiver = await WebhookReceiver.start();
    const hook = await subscribe(server, receiver, '/rotate');
    const rotated = await server.api.post(`${BASE}/${hook.id}/rotate-secret/`);
    assert.equal(rotated.status, 200, rotated.text);
    assert.match(rotated.body.secret, /^whsec_/);
    assert.notEqual(rotated.body.secret, hook.secret);
    assert.equal((await server.api.get(`${BASE}/${hook.id}/`)).body.secret, rotated.body.secret);

    const eventId = await ping(server, hook.id);
    const [request] = await receiver.waitFor((r) => r.headers['webhook-id'] === eventId);
    assert.throws(() => verify(hook.secret, request!), /signature/i);
    assert.equal(verify(rotated.body.secret, request!).id, eventId);
  });

  it('pings an inactive subscription too', async () => {
    receiver = await WebhookReceiver.start();
    const hook = await subscribe(server, receiver, '/inactive', { is_active: false });
    const eventId = await ping(server, hook.id);
    const [request] = await receiver.waitFor((r) => r.headers['webhook-id'] === eventId);
    assert.equal(verify(hook.secret, request!).type, 'webhook.ping');
  });
});

describe('webhooks: durability across restarts', () => {
  let receiver: WebhookReceiver;
  afterEach(async () => {
    await receiver?.close();
  });

  it('delivers after a SIGKILL what was in flight or waiting for a retry', async () => {
    receiver = await WebhookReceiver.start();
    const first = await startServer({ args: LOCAL_TARGETS });
    // /stuck never answers before the kill; /retry fails once and waits for its 1 s retry
    receiver.respond = (request) =>
      request.path === '/stuck'
        ? 'hang'
        : request.path === '/retry' && receiver.to('/retry').length === 0
          ? { status: 500 }
          : { status: 200 };
    const stuck = await subscribe(first, receiver, '/stuck');
    const retry = await subscribe(first, receiver, '/retry');
    const stuckIds = [await ping(first, stuck.id), await ping(first, stuck.id)];
    const retryId = await ping(first, retry.id);
    await receiver.waitFor((r) => r.path === '/stuck', 2);
    // the failed attempt is recorded, so the delivery waits for its retry when the process dies
    await attemptsUntil(first, retry.id, (a) => a.length === 1);
    await first.kill();

    receiver.respond = () => ({ status: 200 });
    const second = await startServer({ args: LOCAL_TARGETS, dbFile: first.dbFile });
    // a restart on an existing database prints no bootstrap token
    const api = second.api.withToken(first.adminToken);
    try {
      for (const id of stuckIds) {
        const requests = await receiver.waitFor((r) => r.headers['webhook-id'] === id, 2);
        assert.equal(verify(stuck.secret, requests[1]!).id, id);
      }
      const retried = await receiver.waitFor((r) => r.headers['webhook-id'] === retryId, 2);
      assert.equal(verify(retry.secret, retried[1]!).id, retryId);
      const attempts = await attemptsUntil({ api }, retry.id, (a) => a.length === 2);
      assert.deepEqual(
        attempts.map((a) => a.status),
        ['succeeded', 'failed'],
      );
    } finally {
      await second.stop();
    }
  });

  it('waits on SIGTERM for attempts in flight, so nothing is sent twice', async () => {
    receiver = await WebhookReceiver.start();
    receiver.respond = () => ({ status: 200, delayMs: 700 });
    const server = await startServer({ args: LOCAL_TARGETS });
    const hook = await subscribe(server, receiver, '/slow');
    const eventId = await ping(server, hook.id);
    await receiver.waitFor((r) => r.headers['webhook-id'] === eventId);
    assert.equal(await server.stop(), 0);

    const again = await startServer({ args: LOCAL_TARGETS, dbFile: server.dbFile });
    try {
      const [attempt] = await attemptsUntil({ api: again.api.withToken(server.adminToken) }, hook.id, (a) => a.length === 1);
      assert.equal(attempt.status, 'succeeded');
      await sleep(100);
      assert.equal(receiver.received.length, 1);
    } finally {
      await again.stop();
    }
  });
});

describe('webhooks: domain events', () => {
  const server = useServer({ args: [...LOCAL_TARGETS, '--public-url', 'https://learn.example.com/'] });
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await receiver.close();
  });

  it('delivers content_item.created and article.created when an article is created', async () => {
    const hook = await subscribe(server, receiver, '/content', { events: ['content_item.created', 'article.*'] });
    const created = await server.api.post('/api/v2/articles/', { name: 'Webhook onboarding', duration: 15 });
    assert.equal(created.status, 201, created.text);
    const id = created.body.public_id;
    const requests = await receiver.waitFor((r) => r.path === '/content' && r.body.includes(id), 2);
    const events = requests.map((r) => verify(hook.secret, r));
    assert.deepEqual(events.map((e) => e.type).sort(), ['article.created', 'content_item.created']);
    for (const event of events) {
      assert.match(event.id, /^msg_/);
      assert.equal(event.api_version, '2.0');
    }
    const summary = (await server.api.get(`/api/v2/content-items/${id}/`)).body;
    const article = (await server.api.get(`/api/v2/articles/${id}/`)).body;
    assert.deepEqual(events.find((e) => e.type === 'content_item.created').data.object, summary);
    assert.deepEqual(events.find((e) => e.type === 'article.created').data.object, article);
    assert.notEqual(events[0].id, events[1].id);
  });

  it('sends nothing to an inactive subscription, nor to one subscribed to other events', async () => {
    const inactive = await subscribe(server, receiver, '/content-inactive', { events: ['article.*'], is_active: false });
    await subscribe(server, receiver, '/content-videos', { events: ['video.*'] });
    const witness = await subscribe(server, receiver, '/content-witness', { events: ['article.created'] });
    const created = await server.api.post('/api/v2/articles/', { name: 'Nobody hears this' });
    assert.equal(created.status, 201, created.text);
    const [seen] = await receiver.waitFor((r) => r.path === '/content-witness' && r.body.includes(created.body.public_id));
    assert.equal(verify(witness.secret, seen!).data.object.public_id, created.body.public_id);
    await sleep(100);
    assert.equal(receiver.to('/content-inactive').length, 0);
    assert.equal(receiver.to('/content-videos').length, 0);
    assert.equal((await server.api.get(`${BASE}/${inactive.id}/deliveries/`)).body.data.length, 0);
  });

  it('delivers assignment.created and then assignment.completed with the assignment as it reads', async () => {
    const hook = await subscribe(server, receiver, '/assignments', { events: ['assignment.*'] });
    const { assigned } = await assignedArticle(server.api);
    const id = assigned.body.public_id;
    const completed = await server.api.post(`/api/v2/assignments/${id}/complete/`);
    assert.equal(completed.status, 200, completed.text);

    const requests = await receiver.waitFor((r) => r.path === '/assignments' && r.body.includes(id), 2);
    const events = requests.map((r) => verify(hook.secret, r));
    const byType = new Map(events.map((event) => [event.type, event]));
    assert.deepEqual([...byType.keys()].sort(), ['assignment.completed', 'assignment.created']);
    assert.equal(byType.get('assignment.created').data.object.state, 'not_started');
    const now = (await server.api.get(`/api/v2/assignments/${id}/`)).body;
    assert.deepEqual(byType.get('assignment.completed').data.object, now);
    assert.equal(now.state, 'completed');
    assert.equal(now.progress, 1);
  });

  it('reports media processing: the video changes and video.ready carries MediaProcessingOut', async () => {
    const hook = await subscribe(server, receiver, '/media', { events: ['video.ready', 'video.errored'] });
    const video = (await server.api.post('/api/v2/videos/', { name: 'Keynote', media_asset_id: 'asset-41' })).body;
    assert.equal(video.media_status, 'processing');
    const path = `/api/v2/content-items/${video.public_id}/media-status/`;

    const ready = await server.api.post(path, { media_asset_id: 'asset-41', status: 'ready', duration: 754.5 });
    assert.equal(ready.status, 200, ready.text);
    assert.equal(ready.body.media_status, 'ready');
    assert.equal(ready.body.media_duration, 754.5);
    assert.deepEqual((await server.api.get(`/api/v2/videos/${video.public_id}/`)).body, ready.body);

    const [request] = await receiver.waitFor((r) => r.path === '/media');
    const event = verify(hook.secret, request!);
    assert.equal(event.type, 'video.ready');
    assert.deepEqual(event.data.object, {
      content_id: video.public_id,
      content_type: 'video',
      media_asset_id: 'asset-41',
      status: 'ready',
      duration: 754.5,
      url: `https://learn.example.com/content/video/${video.public_id}`,
    });

    // the media host retries: the same report again changes nothing and notifies nobody
    assert.equal((await server.api.post(path, { media_asset_id: 'asset-41', status: 'ready', duration: 754.5 })).status, 200);
    const errored = await server.api.post(path, { media_asset_id: 'asset-41', status: 'errored' });
    assert.equal(errored.body.media_status, 'errored');
    assert.equal(errored.body.media_duration, null);
    const requests = await receiver.waitFor((r) => r.path === '/media', 2);
    const second = verify(hook.secret, requests[1]!);
    assert.equal(second.type, 'video.errored');
    assert.equal(second.data.object.duration, null);
    await sleep(100);
    assert.equal(receiver.to('/media').length, 2);
  });

  it('validates media reports', async () => {
    const video = (await server.api.post('/api/v2/videos/', { name: 'Clip', media_asset_id: 'asset-7' })).body;
    const path = `/api/v2/content-items/${video.public_id}/media-status/`;
    expectFieldError(await server.api.post(path, { media_asset_id: 'asset-7', status: 'errored', duration: 3 }), 'duration');
    expectFieldError(await server.api.post(path, { media_asset_id: 'asset-7', status: 'done' }), 'status');
    expectFieldError(await server.api.post(path, { status: 'ready' }), 'media_asset_id');
    expectError(await server.api.post(path, { media_asset_id: 'asset-8', status: 'ready' }), 409, 'conflict');
    const article = (await server.api.post('/api/v2/articles/', { name: 'No media here' })).body;
    expectError(
      await server.api.post(`/api/v2/content-items/${article.public_id}/media-status/`, { media_asset_id: 'a', status: 'ready' }),
      422,
      'validation_error',
    );
    expectError(
      await server.api.post(`/api/v2/content-items/${crypto.randomUUID()}/media-status/`, { media_asset_id: 'a', status: 'ready' }),
      404,
      'not_found',
    );
    const organizer = await userWithToken(server, 'organizer');
    expectError(await organizer.api.post(path, { media_asset_id: 'asset-7', status: 'ready' }), 403, 'forbidden');
    // a video without an asset takes the one reported
    const bare = (await server.api.post('/api/v2/videos/', { name: 'Bare' })).body;
    const adopted = await server.api.post(`/api/v2/content-items/${bare.public_id}/media-status/`, {
      media_asset_id: 'asset-9',
      status: 'ready',
    });
    assert.equal(adopted.status, 200, adopted.text);
    assert.deepEqual([adopted.body.media_asset_id, adopted.body.media_status, adopted.body.media_duration], ['asset-9', 'ready', null]);
  });
});
