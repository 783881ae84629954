/**
 * The delivery engine in-process: events recorded straight through the core (as every domain
 * service does) reach a real receiver on 127.0.0.1, verified with the standardwebhooks package.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Webhook } from 'standardwebhooks';
import { createLectern, type Lectern, type LecternConfigInput } from '@lectern/core';
import { openSqliteStorage } from '@lectern/storage';
import { tempDir } from '../helpers/server.ts';
import { signatureHeaders, WebhookReceiver, type ReceivedWebhook } from '../helpers/webhook-receiver.ts';

type WebhookConfig = NonNullable<LecternConfigInput['webhooks']>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The deliveries an endpoint still owes, read from the database file: none pending means nothing
 * can reach the receiver later, which no amount of waiting would prove.
 */
function pendingDeliveries(file: string, publicId: string): number {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const row = db
      .prepare(
        `select count(*) as n from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
         where e.public_id = ? and d.state = 'pending'`,
      )
      .get(publicId) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}
const verify = (secret: string, request: ReceivedWebhook) => new Webhook(secret).verify(request.body, signatureHeaders(request)) as any;

const open: Lectern[] = [];
let receiver: WebhookReceiver;

async function startLectern(webhooks: WebhookConfig = {}, file = join(tempDir(), 'lectern.db'), start = true) {
  const storage = await openSqliteStorage({ file });
  const lectern = createLectern({
    storage,
    config: { webhooks: { allowPrivateTargets: true, retryScheduleSeconds: [0.2, 0.2, 0.2], ...webhooks } },
  });
  if (start) lectern.start();
  open.push(lectern);
  return { lectern, file };
}

async function close(lectern: Lectern) {
  open.splice(open.indexOf(lectern), 1);
  await lectern.close();
}

const record = (lectern: Lectern, ...events: Array<{ type: string; object: unknown }>) =>
  lectern.storage.transaction((tx) => lectern.outbox.record(tx, ...events));

const subscribe = (lectern: Lectern, path: string, events: string[], extra: Record<string, unknown> = {}) =>
  lectern.webhooks.create(lectern.context(), { url: receiver.url(path), events, ...extra });

const attempts = async (lectern: Lectern, id: string) =>
  (await lectern.webhooks.deliveries(lectern.context(), id, { page_size: '100' })).data;

async function attemptsUntil(lectern: Lectern, id: string, done: (list: any[]) => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await attempts(lectern, id);
    if (done(list)) return list;
    if (Date.now() > deadline) assert.fail(`attempts never reached the expected state: ${JSON.stringify(list)}`);
    await sleep(20);
  }
}

const article = { public_id: '7d3c1f9e-1b2a-4c5d-8e9f-0a1b2c3d4e5f', name: 'Onboarding', content_type: 'article' };

afterEach(async () => {
  for (const lectern of [...open]) await close(lectern);
  await receiver?.close();
});

describe('webhook engine', () => {
  it('fans each event out to every active subscription whose events match, and to no other', async () => {
    receiver = await WebhookReceiver.start();
    const { lectern } = await startLectern();
    const articles = await subscribe(lectern, '/articles', ['article.*']);
    const generic = await subscribe(lectern, '/generic', ['content_item.created']);
    const both = await subscribe(lectern, '/both', ['article.created', 'content_item.*']);
    const inactive = await subscribe(lectern, '/inactive', ['article.*', 'content_item.*'], { is_active: false });
    const assignments = await subscribe(lectern, '/assignments', ['assignment.completed']);

    const [articleEvent, contentEvent] = await record(
      lectern,
      { type: 'content_item.created', object: article },
      { type: 'article.created', object: { ...article, is_hidden: false } },
    ).then(([content, typed]) => [typed!, content!]);
    const [completed] = await record(lectern, { type: 'assignment.completed', object: { public_id: 'a1', state: 'completed' } });

    const [toArticles] = await receiver.waitFor((r) => r.path === '/articles');
    assert.deepEqual(verify(articles.secret, toArticles!), articleEvent);
    const [toGeneric] = await receiver.waitFor((r) => r.path === '/generic');
    assert.deepEqual(verify(generic.secret, toGeneric!), contentEvent);
    const toBoth = await receiver.waitFor((r) => r.path === '/both', 2);
    assert.deepEqual(toBoth.map((r) => verify(both.secret, r).id).sort(), [articleEvent!.id, contentEvent!.id].sort());
    const [toAssignments] = await receiver.waitFor((r) => r.path === '/assignments');
    assert.deepEqual(verify(assignments.secret, toAssignments!), completed);

    // the same event reaches each endpoint with the same id and bytes, signed with each one's secret
    const sameEvent = toBoth.find((r) => r.headers['webhook-id'] === articleEvent!.id)!;
    assert.equal(sameEvent.body, toArticles!.body);
    assert.throws(() => verify(articles.secret, sameEvent));

    await sleep(100);
    assert.equal(receiver.to('/inactive').length, 0);
    assert.equal((await attempts(lectern, inactive.id)).length, 0);
    assert.equal(receiver.to('/articles').length, 1);
    assert.equal(receiver.to('/generic').length, 1);
    assert.equal(receiver.received.length, 5);
  });

  it('delivers only events recorded after the subscription existed', async () => {
    receiver = await WebhookReceiver.start();
    const { lectern } = await startLectern();
    const [before] = await record(lectern, { type: 'article.created', object: article });
    const hook = await subscribe(lectern, '/late', ['article.*']);
    const [afterwards] = await record(lectern, { type: 'article.updated', object: article });
    await receiver.waitFor((r) => r.path === '/late');
    await sleep(100);
    assert.deepEqual(
      receiver.received.map((r) => verify(hook.secret, r).id),
      [afterwards!.id],
    );
    assert.notEqual(before!.id, afterwards!.id);
  });

  it('delivers events another process wrote, found by polling', async () => {
    receiver = await WebhookReceiver.start();
    const { lectern, file } = await startLectern();
    const hook = await subscribe(lectern, '/other', ['article.*']);
    const { lectern: cli } = await startLectern({}, file, false);
    const [event] = await record(cli, { type: 'article.deleted', object: article });
    const [request] = await receiver.waitFor((r) => r.path === '/other');
    assert.equal(verify(hook.secret, request!).id, event!.id);
  });

  it('turning a subscription off drops its pending retries; turning it on resumes with new events', async () => {
    receiver = await WebhookReceiver.start();
    receiver.respond = () => ({ status: 500 });
    const { lectern, file } = await startLectern({ retryScheduleSeconds: [0.3, 0.3, 0.3] });
    const hook = await subscribe(lectern, '/toggle', ['article.*']);
    const [old] = await record(lectern, { type: 'article.created', object: article });
    await attemptsUntil(lectern, hook.id, (list) => list.length === 1);
    await lectern.webhooks.update(lectern.context(), hook.id, { is_active: false });
    assert.equal(pendingDeliveries(file, hook.id), 0, 'the retry it owed is dropped');
    assert.equal(receiver.received.length, 1);

    receiver.respond = () => ({ status: 204 });
    await lectern.webhooks.update(lectern.context(), hook.id, { is_active: true });
    const [fresh] = await record(lectern, { type: 'article.updated', object: article });
    await receiver.waitFor((r) => r.headers['webhook-id'] === fresh!.id);
    await attemptsUntil(lectern, hook.id, (list) => list.length === 2);
    assert.equal(pendingDeliveries(file, hook.id), 0, 'the old event is not sent again');
    assert.deepEqual(
      receiver.received.map((r) => r.headers['webhook-id']),
      [old!.id, fresh!.id],
    );
  });

  it('disables an endpoint that keeps failing past the threshold, and cancels what it still owed', async () => {
    receiver = await WebhookReceiver.start();
    receiver.respond = () => ({ status: 500 });
    const { lectern, file } = await startLectern({ retryScheduleSeconds: [0.2, 0.2, 0.2, 0.2, 0.2], disableAfterSeconds: 0.3 });
    const hook = await subscribe(lectern, '/failing', ['article.*']);
    await record(lectern, { type: 'article.created', object: article });
    const list = await attemptsUntil(lectern, hook.id, (l) => l.length >= 2 && l[0].next_attempt_at === null);
    const after = await lectern.webhooks.get(lectern.context(), hook.id);
    assert.equal(after.is_active, false);
    assert.match(after.disabled_reason!, /No successful delivery/);
    assert.ok(list.length < 5, `disabled before the schedule ran out (${list.length} attempts)`);
    assert.equal(pendingDeliveries(file, hook.id), 0, 'what it still owed is cancelled');
    const count = receiver.received.length;
    await record(lectern, { type: 'article.updated', object: article });
    // a witness subscribed to the same event: once it has its copy, the fan-out has passed the event
    const witness = await subscribe(lectern, '/witness', ['article.*']);
    const [later] = await record(lectern, { type: 'article.updated', object: article });
    await receiver.waitFor((r) => r.path === '/witness' && r.headers['webhook-id'] === later!.id);
    assert.equal(pendingDeliveries(file, hook.id), 0, 'a disabled endpoint is owed nothing new');
    assert.equal(receiver.received.filter((r) => r.path === '/failing').length, count);
    assert.ok(witness.id);
  });

  it('counts an attempt without a complete answer in time as failed', async () => {
    receiver = await WebhookReceiver.start();
    receiver.respond = () => 'hang';
    const { lectern } = await startLectern({ timeoutSeconds: 0.2, retryScheduleSeconds: [60] });
    const hook = await subscribe(lectern, '/hang', ['article.*']);
    await record(lectern, { type: 'article.created', object: article });
    const [attempt] = await attemptsUntil(lectern, hook.id, (l) => l.length === 1);
    assert.equal(attempt!.status, 'failed');
    assert.equal(attempt!.response_status, null);
    assert.match(attempt!.error!, /No complete answer within 0.2 s/);
    assert.ok(attempt!.duration_ms >= 150 && attempt!.duration_ms < 2000, String(attempt!.duration_ms));
    assert.ok(attempt!.next_attempt_at);
  });

  it('records network errors and keeps at most 1 KiB of an answer', async () => {
    receiver = await WebhookReceiver.start();
    receiver.respond = () => ({ status: 400, body: 'é'.repeat(5000) });
    const { lectern } = await startLectern({ retryScheduleSeconds: [60] });
    const big = await subscribe(lectern, '/big', ['article.*']);
    const refused = await lectern.webhooks.create(lectern.context(), { url: 'http://127.0.0.1:9/closed', events: ['article.*'] });
    await record(lectern, { type: 'article.created', object: article });
    const [bigAttempt] = await attemptsUntil(lectern, big.id, (l) => l.length === 1);
    assert.equal(bigAttempt!.response_status, 400);
    assert.ok(Buffer.byteLength(bigAttempt!.response_body!) <= 1024 + 3);
    const [refusedAttempt] = await attemptsUntil(lectern, refused.id, (l) => l.length === 1);
    assert.equal(refusedAttempt!.response_status, null);
    assert.match(refusedAttempt!.error!, /ECONNREFUSED/);
  });

  it('re-checks the target before each attempt', async () => {
    receiver = await WebhookReceiver.start();
    const { lectern } = await startLectern({ allowPrivateTargets: false, retryScheduleSeconds: [60] });
    // written past the registration check, as if DNS had changed since
    const endpoint = await lectern.storage.webhookEndpoints.insert({
      publicId: lectern.ids.prefixed('ep_'),
      url: receiver.url('/private').replace('http:', 'https:'),
      events: ['article.created'],
      description: '',
      isActive: true,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      created: new Date(Date.now() - 1000).toISOString(),
    });
    await record(lectern, { type: 'article.created', object: article });
    const [attempt] = await attemptsUntil(lectern, endpoint.view.id, (l) => l.length === 1);
    assert.equal(attempt!.status, 'failed');
    assert.match(attempt!.error!, /Target refused: .*non-public/);
    assert.equal(receiver.received.length, 0);
  });

  it('keeps to the concurrency bound per endpoint and delivers every event exactly once', async () => {
    receiver = await WebhookReceiver.start();
    receiver.respond = () => ({ status: 200, delayMs: 10 });
    const { lectern } = await startLectern({ concurrencyPerEndpoint: 3, concurrency: 8 });
    const a = await subscribe(lectern, '/a', ['article.*']);
    await subscribe(lectern, '/b', ['article.*']);
    const ids: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const events = await record(lectern, ...Array.from({ length: 10 }, () => ({ type: 'article.updated', object: article })));
      ids.push(...events.map((e) => e.id));
    }
    await receiver.waitFor(() => true, 200);
    await sleep(100);
    assert.equal(receiver.received.length, 200);
    for (const path of ['/a', '/b']) {
      assert.deepEqual(
        receiver
          .to(path)
          .map((r) => r.headers['webhook-id'])
          .sort(),
        [...ids].sort(),
      );
    }
    assert.ok(receiver.maxInFlight <= 6, `at most 3 per endpoint, saw ${receiver.maxInFlight} at once`);
    assert.equal((await attempts(lectern, a.id)).length, 100);
  });

  it('waits on close for attempts in flight, and records them', async () => {
    receiver = await WebhookReceiver.start();
    receiver.respond = () => ({ status: 200, delayMs: 300 });
    const { lectern, file } = await startLectern();
    const hook = await subscribe(lectern, '/closing', ['article.*']);
    await record(lectern, { type: 'article.created', object: article });
    await receiver.waitFor(() => true);
    await close(lectern);
    const { lectern: reopened } = await startLectern({}, file, false);
    const [attempt] = await attempts(reopened, hook.id);
    assert.equal(attempt!.status, 'succeeded');
  });

  it('bounds the wait on close, and the next start sends again what was cut off', async () => {
    receiver = await WebhookReceiver.start();
    receiver.respond = () => 'hang';
    const { lectern, file } = await startLectern({ shutdownGraceSeconds: 0.2 });
    const hook = await subscribe(lectern, '/cut', ['article.*']);
    const [event] = await record(lectern, { type: 'article.created', object: article });
    await receiver.waitFor(() => true);
    const started = Date.now();
    await close(lectern);
    assert.ok(Date.now() - started < 2000, `close took ${Date.now() - started} ms`);

    receiver.respond = () => ({ status: 200 });
    const { lectern: reopened } = await startLectern({}, file);
    const requests = await receiver.waitFor((r) => r.headers['webhook-id'] === event!.id, 2);
    assert.equal(verify(hook.secret, requests[1]!).id, event!.id);
    const [attempt] = await attemptsUntil(reopened, hook.id, (l) => l.length === 1);
    assert.equal(attempt!.attempt, 1);
    assert.equal(attempt!.status, 'succeeded');
  });

  it("reports an event's and an event series' recording with their recording events", async () => {
    receiver = await WebhookReceiver.start();
    const { lectern } = await startLectern();
    const hook = await subscribe(lectern, '/recordings', ['event.*', 'event_type.*']);
    const ctx = lectern.context();
    const event = await lectern.scheduledEvents.create(ctx, {
      name: 'Live session',
      timeslots: [{ starts_at: '2026-06-01T09:00:00Z', duration: 'PT1H' }],
    });
    const series = await lectern.eventSeries.create(ctx, { name: 'Monthly live sessions' });
    await lectern.media.reportStatus(ctx, event.public_id, { media_asset_id: 'rec-1', status: 'ready', duration: 3600 });
    await lectern.media.reportStatus(ctx, series.public_id, { media_asset_id: 'rec-2', status: 'errored' });
    const requests = await receiver.waitFor((r) => /recording_/.test(r.body), 2);
    const byType = Object.fromEntries(requests.map((r) => verify(hook.secret, r)).map((e) => [e.type, e.data.object]));
    assert.deepEqual(byType['event.recording_ready'], {
      content_id: event.public_id,
      content_type: 'event',
      media_asset_id: 'rec-1',
      status: 'ready',
      duration: 3600,
      url: `http://127.0.0.1:8080/content/event/${event.public_id}`,
    });
    assert.equal(byType['event_type.recording_errored'].content_type, 'event_type');
    assert.equal(byType['event_type.recording_errored'].duration, null);
  });
});
