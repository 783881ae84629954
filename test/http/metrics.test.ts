/**
 * `GET /metrics`: Prometheus' text format (read back with a Prometheus parser), admins only, and
 * series labelled by route template so their number never grows with the ids requested. With
 * several servers on one database each counts its own requests: every scrape here goes to one
 * server's own address.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createRequire } from 'node:module';
import { waitForJob } from '../helpers/bulk-jobs.ts';
import { uniqueEmail, userWithToken, useServer } from '../helpers/server.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

interface Family {
  name: string;
  type: string;
  metrics: Array<{ value?: string; labels?: Record<string, string> }>;
}

// the parser ships no type declarations
const parsePrometheus = createRequire(import.meta.url)('parse-prometheus-text-format') as (text: string) => Family[];

async function scrape(url: string, token: string | null): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

async function families(url: string, token: string): Promise<Map<string, Family>> {
  const scraped = await scrape(url, token);
  assert.equal(scraped.status, 200, scraped.text);
  const parsed = parsePrometheus(scraped.text);
  return new Map(parsed.map((family) => [family.name, family]));
}

/** The value of the sample of `name` whose labels include `labels`; 0 when there is none. */
function sample(all: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const family = all.get(name);
  const found = family?.metrics.find((metric) => Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value));
  return found ? Number(found.value) : 0;
}

/** The sample lines (series) of the request metrics. */
const requestSeries = (text: string) => text.split('\n').filter((line) => line.startsWith('lectern_http_'));

describe('GET /metrics', () => {
  // high limits: the cardinality test sends ten thousand requests with one token, fifty at a time
  // over fetch's pool beside the connections the test client keeps, which together came near one
  // address's 100 connections (a refused connection is a reset here)
  const server = useServer({
    args: [
      '--rate-limit',
      '1000000',
      '--max-connections-per-address',
      '1000',
      '--allow-private-webhook-targets',
      '--webhook-retry-schedule',
      '1',
    ],
  });
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await receiver.close();
  });

  it('answers 401 without a token and 403 to an organizer; an admin gets the text format', async () => {
    const anonymous = await scrape(server.url, null);
    assert.equal(anonymous.status, 401, anonymous.text);
    assert.equal(JSON.parse(anonymous.text).error.code, 'unauthenticated');
    const organizer = await userWithToken(server, 'organizer');
    const refused = await scrape(server.url, organizer.token);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(JSON.parse(refused.text).error.code, 'forbidden');
    const admin = await scrape(server.url, server.adminToken);
    assert.equal(admin.status, 200, admin.text);
    assert.equal(admin.type, 'text/plain; version=0.0.4; charset=utf-8');
    // the first scrape: the event-loop delay has no sample yet, and says so as the text format does
    assert.match(admin.text, /^lectern_nodejs_eventloop_lag_mean_seconds NaN$/m);
    const names = parsePrometheus(admin.text).map((family) => family.name);
    for (const name of [
      'lectern_http_requests_total',
      'lectern_http_request_duration_seconds',
      'lectern_jobs',
      'lectern_imports',
      'lectern_webhook_deliveries_total',
      'lectern_webhook_backlog',
      'lectern_webhook_oldest_pending_age_seconds',
      'lectern_db_transactions_total',
      'lectern_db_transactions_waiting',
      'lectern_db_transaction_wait_seconds_total',
      'lectern_db_longest_transaction_seconds',
      'lectern_process_cpu_seconds_total',
      'lectern_process_resident_memory_bytes',
      'lectern_nodejs_eventloop_lag_seconds',
    ]) {
      assert.ok(names.includes(name), `${name} is served`);
    }
    assert.ok(
      names.every((name) => name.startsWith('lectern_')),
      names.join(' '),
    );
    if (server.dbFile.startsWith('postgres')) assert.ok(names.includes('lectern_db_pool_max'), 'a pool reports its figures');
  });

  it('counts requests by method, route template and status, and times them', async () => {
    const url = server.url;
    const labels = { method: 'GET', route: '/api/v2/users/:id', status: '404' };
    const before = await families(url, server.adminToken);
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${url}/api/v2/users/not-a-user-${i}/`, { headers: { authorization: `Bearer ${server.adminToken}` } });
      assert.equal(response.status, 404);
    }
    const listed = await fetch(`${url}/api/v2/users/`, { headers: { authorization: `Bearer ${server.adminToken}` } });
    assert.equal(listed.status, 200);
    const afterwards = await families(url, server.adminToken);
    assert.equal(sample(afterwards, 'lectern_http_requests_total', labels) - sample(before, 'lectern_http_requests_total', labels), 3);
    assert.ok(sample(afterwards, 'lectern_http_requests_total', { method: 'GET', route: '/api/v2/users', status: '200' }) >= 1);
    // the scrapes themselves are counted under their own route
    assert.ok(sample(afterwards, 'lectern_http_requests_total', { method: 'GET', route: '/metrics', status: '200' }) >= 1);
    assert.equal(afterwards.get('lectern_http_request_duration_seconds')?.type, 'HISTOGRAM');
    assert.equal(afterwards.get('lectern_http_route_duration_seconds')?.type, 'SUMMARY');
    // the parser folds labelled histograms and summaries together, so their counts are read from the lines
    const lines = (await scrape(url, server.adminToken)).text.split('\n');
    const value = (prefix: string) => Number(lines.find((line) => line.startsWith(prefix))?.split(' ')[1]);
    const routeCount = value('lectern_http_route_duration_seconds_count{method="GET",route="/api/v2/users/:id"}');
    assert.ok(routeCount >= 3, String(routeCount));
    assert.ok(value('lectern_http_route_duration_seconds_sum{method="GET",route="/api/v2/users/:id"}') > 0);
    const count = value('lectern_http_request_duration_seconds_count{method="GET"}');
    assert.ok(count >= routeCount + 1);
    assert.equal(
      value('lectern_http_request_duration_seconds_bucket{method="GET",le="+Inf"}'),
      count,
      'the +Inf bucket holds every observation',
    );
  });

  it('keeps a scrape under 200 KB after every route has answered, with conforming names and NaN spelled so', async () => {
    const document = await server.api.get('/api/v2/openapi.json');
    assert.equal(document.status, 200, document.text);
    const calls: Array<[string, string]> = [];
    for (const [path, operations] of Object.entries(document.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(operations)) {
        if (['get', 'post', 'put', 'patch', 'delete'].includes(method))
          calls.push([method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'nope')]);
      }
    }
    assert.ok(calls.length > 80, `${calls.length} operations`);
    // each route answers several statuses: without a token, with one and a bad body, and with an organizer's
    const organizer = await userWithToken(server, 'organizer');
    for (const token of [null, server.adminToken, organizer.token]) {
      for (let at = 0; at < calls.length; at += 20) {
        await Promise.all(
          calls.slice(at, at + 20).map(async ([method, path]) => {
            const headers: Record<string, string> = { 'content-type': 'application/json' };
            if (token) headers.authorization = `Bearer ${token}`;
            const body = method === 'GET' || method === 'DELETE' ? undefined : '{"x":1}';
            await (await fetch(server.url + path, { method, headers, body })).arrayBuffer();
          }),
        );
      }
    }
    const scraped = (await scrape(server.url, server.adminToken)).text;
    const statuses = new Set(requestSeries(scraped).map((line) => /status="(\d+)"/.exec(line)?.[1]));
    assert.ok(statuses.size >= 5, [...statuses].join(' '));
    assert.ok(Buffer.byteLength(scraped) < 200_000, `${Buffer.byteLength(scraped)} bytes`);
    // promtool's rules: a counter, and only a counter, ends in _total; NaN is spelled so
    for (const family of parsePrometheus(scraped)) {
      assert.equal(family.name.endsWith('_total'), family.type === 'COUNTER', `${family.name} is a ${family.type}`);
    }
    assert.ok(/^lectern_nodejs_active_handles\{type="\w+"\} \d+$/m.test(scraped), 'the handles are counted by type');
    assert.ok(!/^lectern_nodejs_active_handles_total/m.test(scraped), 'and not summed into a gauge named as a counter');
    assert.ok(!/ Nan$/m.test(scraped), 'NaN is written as the text format spells it');
  });

  it('never labels a series with a raw path: ten thousand distinct ids add no series', async () => {
    const url = server.url;
    const headers = { authorization: `Bearer ${server.adminToken}` };
    const send = async (from: number, to: number) => {
      const paths: string[] = [];
      for (let i = from; i < to; i++) paths.push(i % 2 === 0 ? `/api/v2/users/id-${i}/` : `/no-such-place/${i}`);
      // a few at a time over kept-alive connections
      for (let i = 0; i < paths.length; i += 50) {
        await Promise.all(paths.slice(i, i + 50).map(async (path) => (await fetch(url + path, { headers })).arrayBuffer()));
      }
    };
    await send(0, 20);
    const before = requestSeries((await scrape(url, server.adminToken)).text);
    await send(20, 10_020);
    const afterwards = (await scrape(url, server.adminToken)).text;
    // the same series, only their values differ
    const strip = (lines: string[]) => lines.map((line) => line.slice(0, line.lastIndexOf(' '))).sort();
    assert.deepEqual(strip(requestSeries(afterwards)), strip(before));
    assert.ok(!/id-\d|no-such-place/.test(afterwards), 'no raw path in any label');
    const all = new Map(parsePrometheus(afterwards).map((family) => [family.name, family]));
    assert.ok(sample(all, 'lectern_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }) >= 5000);
  });

  it('reports bulk jobs by kind and status', async () => {
    const submitted = await server.api.post('/api/v2/users/bulk/', {
      users: [{ email: uniqueEmail('metrics'), name: 'Metrics person' }],
    });
    assert.equal(submitted.status, 202, submitted.text);
    await waitForJob(server.api, `/api/v2/users/bulk/${submitted.body.id}/`);
    const jobs = (await families(server.url, server.adminToken)).get('lectern_jobs')!;
    const completed = jobs.metrics.filter((metric) => metric.labels?.status === 'completed');
    assert.ok(completed.length >= 1 && completed.every((metric) => metric.labels?.kind), JSON.stringify(jobs));
    assert.ok(completed.reduce((sum, metric) => sum + Number(metric.value), 0) >= 1);
    // a kind with jobs has every status, zeros included, so an alert sees its first failure as a change
    const kind = completed[0]!.labels!.kind;
    const statuses = jobs.metrics.filter((metric) => metric.labels?.kind === kind).map((metric) => metric.labels!.status);
    assert.deepEqual(statuses.sort(), ['completed', 'failed', 'pending', 'processing']);
  });

  it('reports imports by kind and status', async () => {
    const csv = `email,name\n${uniqueEmail('imported')},Imported person\n`;
    const upload = await server.api.request('POST', '/api/v2/imports/?kind=users', { raw: csv, headers: { 'content-type': 'text/csv' } });
    assert.equal(upload.status, 202, upload.text);
    for (const deadline = Date.now() + 30_000; ;) {
      const status = (await server.api.get(`/api/v2/imports/${upload.body.id}/`)).body.status;
      if (status === 'completed') break;
      assert.ok(Date.now() < deadline && (status === 'pending' || status === 'running'), status);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const imports = (await families(server.url, server.adminToken)).get('lectern_imports')!;
    const users = imports.metrics.filter((metric) => metric.labels?.kind === 'users');
    assert.deepEqual(users.map((metric) => metric.labels!.status).sort(), ['cancelled', 'completed', 'failed', 'pending', 'running']);
    assert.ok(Number(users.find((metric) => metric.labels!.status === 'completed')!.value) >= 1);
  });

  it('counts webhook deliveries by outcome on the server that made them, and reports the backlog', async () => {
    const subscribed = await server.api.post('/public_api/v2/webhooks/', {
      url: receiver.url('/metrics'),
      events: ['content_item.created'],
    });
    assert.equal(subscribed.status, 201, subscribed.text);
    const ping = await server.api.post(`/public_api/v2/webhooks/${subscribed.body.id}/test/`, {});
    assert.equal(ping.status, 202, ping.text);
    await receiver.waitFor((request) => request.path === '/metrics');
    // the attempt is counted once its transaction commits, by whichever server made it
    const deadline = Date.now() + 5000;
    let succeeded = 0;
    while (succeeded < 1 && Date.now() < deadline) {
      succeeded = 0;
      for (const url of server.urls)
        succeeded += sample(await families(url, server.adminToken), 'lectern_webhook_deliveries_total', { outcome: 'succeeded' });
      if (succeeded < 1) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(succeeded >= 1, 'the delivery is counted as succeeded');
    const all = await families(server.url, server.adminToken);
    for (const outcome of ['succeeded', 'retrying', 'failed', 'cancelled']) {
      assert.ok(
        all.get('lectern_webhook_deliveries_total')!.metrics.some((metric) => metric.labels?.outcome === outcome),
        outcome,
      );
    }
    assert.ok(sample(all, 'lectern_webhook_backlog') >= 0);
    assert.ok(sample(all, 'lectern_webhook_oldest_pending_age_seconds') >= 0);
    assert.ok(sample(all, 'lectern_db_transactions_total') >= 1, 'the writes above ran in transactions');
  });

  it('reports the longest transaction since the previous scrape', async () => {
    const created = await server.api.post('/api/v2/users/', { email: 'longest-transaction@example.com', name: 'Longest' });
    assert.equal(created.status, 201, created.text);
    // the write went to one of the servers (two on PostgreSQL): each reports its own threads
    let longest = 0;
    for (const url of server.urls)
      longest = Math.max(longest, sample(await families(url, server.adminToken), 'lectern_db_longest_transaction_seconds'));
    assert.ok(longest > 0, 'the creation ran in a transaction that ended since the last scrape');
  });
});
