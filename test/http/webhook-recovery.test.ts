import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { expectError, expectFieldError, type TestServer, useServer } from '../helpers/server.ts';
import { attemptsUntil, WEBHOOKS } from '../helpers/webhook-attempts.ts';
import { signatureHeaders, WebhookReceiver } from '../helpers/webhook-receiver.ts';

// one retry after a second: a delivery gives up after two attempts
const ARGS = ['--allow-private-webhook-targets', '--webhook-retry-schedule', '1'];

async function subscribe(server: TestServer, receiver: WebhookReceiver, path: string) {
  const response = await server.api.post(`${WEBHOOKS}/`, { url: receiver.url(path), events: ['article.*'] });
  assert.equal(response.status, 201, response.text);
  return response.body;
}

async function ping(server: TestServer, id: string): Promise<string> {
  const response = await server.api.post(`${WEBHOOKS}/${id}/test/`);
  assert.equal(response.status, 202, response.text);
  return response.body.event_id;
}

const finished = (attempt: any) => attempt.next_attempt_at === null;

/** A receiver per test that answers 503 until the test sets `up`. */
function useReceiver(): { receiver: WebhookReceiver; up: boolean } {
  const target = { receiver: undefined as unknown as WebhookReceiver, up: false };
  beforeEach(async () => {
    target.up = false;
    target.receiver = await WebhookReceiver.start();
    target.receiver.respond = () => (target.up ? { status: 200, body: 'ok' } : { status: 503, body: 'down' });
  });
  afterEach(async () => {
    await target.receiver.close();
  });
  return target;
}

describe('webhooks: retry and recover', () => {
  const server = useServer({ args: ARGS });
  const target = useReceiver();

  it('keeps the headers and body each attempt sent', async () => {
    target.up = true;
    const hook = await subscribe(server, target.receiver, '/kept');
    const eventId = await ping(server, hook.id);
    const [attempt] = await attemptsUntil(server, hook.id, (a) => a.length === 1);
    const [request] = target.receiver.received;
    assert.deepEqual(Object.keys(attempt.request_headers).sort(), [
      'content-type',
      'user-agent',
      'webhook-id',
      'webhook-signature',
      'webhook-timestamp',
    ]);
    for (const [name, value] of Object.entries(attempt.request_headers)) assert.equal(request!.headers[name], value, name);
    assert.equal(attempt.request_headers['webhook-id'], eventId);
    assert.deepEqual(attempt.payload, JSON.parse(request!.body));
    assert.equal(attempt.payload.id, eventId);
  });

  it('retries a delivery the schedule gave up on: one attempt, same webhook-id, a fresh signature', async () => {
    const hook = await subscribe(server, target.receiver, '/retry');
    const eventId = await ping(server, hook.id);
    const failed = await attemptsUntil(server, hook.id, (a) => a.length === 2 && finished(a[0]));
    assert.ok(failed.every((a) => a.status === 'failed'));

    // still down: the retry is one attempt, which schedules nothing after it
    const again = await server.api.post(`${WEBHOOKS}/${hook.id}/deliveries/${failed[1].id}/retry/`);
    assert.equal(again.status, 202, again.text);
    assert.deepEqual(again.body, { event_id: eventId });
    const third = await attemptsUntil(server, hook.id, (a) => a.length === 3 && finished(a[0]));
    assert.deepEqual(
      third.map((a) => [a.attempt, a.status]),
      [
        [3, 'failed'],
        [2, 'failed'],
        [1, 'failed'],
      ],
    );

    target.up = true;
    const retried = await server.api.post(`${WEBHOOKS}/${hook.id}/deliveries/${third[0].id}/retry/`);
    assert.equal(retried.status, 202, retried.text);
    const [last] = await attemptsUntil(server, hook.id, (a) => a.length === 4);
    assert.equal(last.status, 'succeeded');
    assert.equal(last.event_id, eventId);
    const request = target.receiver.received.at(-1)!;
    assert.equal(request.headers['webhook-id'], eventId);
    new Webhook(hook.secret).verify(request.body, signatureHeaders(request));
    // signed anew when sent: the timestamp is the attempt's own
    assert.ok(Number(last.request_headers['webhook-timestamp']) >= Number(third[0].request_headers['webhook-timestamp']));
    assert.equal(last.request_headers['webhook-signature'], request.headers['webhook-signature']);

    // a delivery that succeeded can be sent again too (a receiver that lost it)
    const resent = await server.api.post(`${WEBHOOKS}/${hook.id}/deliveries/${last.id}/retry/`);
    assert.equal(resent.status, 202, resent.text);
    const five = await attemptsUntil(server, hook.id, (a) => a.length === 5);
    assert.deepEqual([five[0].attempt, five[0].status, five[0].next_attempt_at], [5, 'succeeded', null]);
  });

  it('recovers, once each, every event whose last attempt failed since a time', async () => {
    const hook = await subscribe(server, target.receiver, '/recover');
    const before = new Date().toISOString();
    const events = [];
    for (let i = 0; i < 3; i++) events.push(await ping(server, hook.id));
    await attemptsUntil(server, hook.id, (a) => a.length === 6 && a.filter(finished).length === 3);

    const future = await server.api.post(`${WEBHOOKS}/${hook.id}/recover/`, { since: '2999-01-01T00:00:00Z' });
    assert.equal(future.status, 202, future.text);
    assert.deepEqual(future.body, { count: 0 });

    target.up = true;
    const sent = target.receiver.received.length;
    const recovered = await server.api.post(`${WEBHOOKS}/${hook.id}/recover/`, { since: before });
    assert.equal(recovered.status, 202, recovered.text);
    assert.deepEqual(recovered.body, { count: 3 });
    const attempts = await attemptsUntil(server, hook.id, (a) => a.length === 9);
    assert.ok(attempts.slice(0, 3).every((a) => a.status === 'succeeded' && a.attempt === 3));
    // up to the per-endpoint concurrency are in flight together: arrival order is the next suite's
    assert.deepEqual(
      target.receiver.received
        .slice(sent)
        .map((r) => r.headers['webhook-id'])
        .sort(),
      [...events].sort(),
    );
    // nothing failed since: nothing to recover
    assert.deepEqual((await server.api.post(`${WEBHOOKS}/${hook.id}/recover/`, { since: before })).body, { count: 0 });
  });

  it('refuses what it cannot do with a clear error', async () => {
    const hook = await subscribe(server, target.receiver, '/errors');
    const other = await subscribe(server, target.receiver, '/other');
    await ping(server, hook.id);
    const [attempt] = await attemptsUntil(server, hook.id, (a) => a.length === 2 && finished(a[0]));
    expectError(await server.api.post(`${WEBHOOKS}/${other.id}/deliveries/${attempt.id}/retry/`), 404, 'not_found');
    expectError(await server.api.post(`${WEBHOOKS}/${hook.id}/deliveries/att_nope/retry/`), 404, 'not_found');
    expectError(await server.api.post(`${WEBHOOKS}/ep_nope/deliveries/${attempt.id}/retry/`), 404, 'not_found');
    expectFieldError(await server.api.post(`${WEBHOOKS}/${hook.id}/recover/`, {}), 'since');
    expectFieldError(await server.api.post(`${WEBHOOKS}/${hook.id}/recover/`, { since: 'yesterday' }), 'since');
    expectError(
      await server.api.post(`${WEBHOOKS}/${hook.id}/recover/`, { since: '2026-01-01T00:00:00Z', all: true }),
      422,
      'validation_error',
    );

    // a turned-off endpoint would drop what is sent to it: refused, nothing scheduled
    assert.equal((await server.api.patch(`${WEBHOOKS}/${hook.id}/`, { is_active: false })).status, 200);
    const deliveries = await server.api.get(`${WEBHOOKS}/${hook.id}/deliveries/`);
    assert.equal(deliveries.status, 200);
    const retried = await server.api.post(`${WEBHOOKS}/${hook.id}/deliveries/${attempt.id}/retry/`);
    // the attempt was of a ping, which reaches a turned-off endpoint too
    assert.equal(retried.status, 202, retried.text);
    expectError(await server.api.post(`${WEBHOOKS}/${hook.id}/recover/`, { since: '2026-01-01T00:00:00Z' }), 409, 'conflict');
  });
});

// A receiver that needs events in order runs one attempt at a time per subscription; the bound is
// per server process, so this holds on one server (docs/webhooks.md).
describe('webhooks: recovery in event order, one attempt at a time', () => {
  const server = useServer({ args: [...ARGS, '--webhook-concurrency-per-endpoint', '1'], instances: 1 });
  const target = useReceiver();

  it('sends the recovered events in the order they happened', async () => {
    const hook = await subscribe(server, target.receiver, '/ordered');
    const before = new Date().toISOString();
    const events = [];
    for (let i = 0; i < 5; i++) events.push(await ping(server, hook.id));
    await attemptsUntil(server, hook.id, (a) => a.length === 10 && a.filter(finished).length === 5);

    target.up = true;
    const sent = target.receiver.received.length;
    const recovered = await server.api.post(`${WEBHOOKS}/${hook.id}/recover/`, { since: before });
    assert.deepEqual(recovered.body, { count: 5 });
    await attemptsUntil(server, hook.id, (a) => a.length === 15);
    assert.deepEqual(
      target.receiver.received.slice(sent).map((r) => r.headers['webhook-id']),
      events,
    );
  });
});
