/**
 * Bad input must never produce a 500, a hang or a non-envelope error. Every route is called with
 * hostile ids, bodies and query strings, and every field of valid create bodies is replaced by
 * values of the wrong type; each answer must be a non-5xx with the error envelope. Requests fetch
 * will not send (malformed HTTP, odd targets, endless bodies) go over a bare socket.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { rawRequest, streamBody, type RawResponse } from '../helpers/raw-http.ts';
import { uniqueEmail, type ApiClient, type ApiResponse, useServer } from '../helpers/server.ts';

const HOSTILE_VALUES: unknown[] = [
  null,
  0,
  -1,
  1.5,
  1e308,
  '',
  'x',
  ' ',
  'a'.repeat(5000),
  true,
  [],
  [null],
  {},
  { nested: { deep: [1] } },
  '2026-13-45',
  "'; drop table users; --",
  '\u0000',
  '😀',
];
const HOSTILE_BODIES = [
  '',
  '{',
  '[]',
  'null',
  '"text"',
  '{"__proto__": {"x": 1}}',
  JSON.stringify({ items: 'x', member_ids: 'x', timeslots: 'x', events: 'x', users: 'x' }),
];
const HOSTILE_QUERIES = [
  'page=1e9',
  'page_size=99999999999999999999',
  'ordering=,,-,+',
  'search=%00%25_',
  'created__gte=9999-99-99',
  'user=../../etc',
  'state=,',
  'cursor=%FF',
  'content_type=article,,',
  'tag_all=,',
];
const HOSTILE_IDS = ['not-a-uuid', '00000000-0000-0000-0000-000000000000', '%2e%2e', '1', "'"];

describe('robustness: no input produces a server error', () => {
  const server = useServer({ args: ['--rate-limit', '1000000', '--allow-private-webhook-targets'] });
  let api: ApiClient;
  const ids: Record<string, string> = {};
  const failures: string[] = [];

  const check = (label: string, response: ApiResponse) => {
    if (response.status >= 500) failures.push(`${label} → ${response.status} ${response.text.slice(0, 200)}`);
    else if (
      response.status >= 400 &&
      (typeof response.body?.error?.code !== 'string' || typeof response.body.error.request_id !== 'string')
    ) {
      failures.push(`${label} → ${response.status} without the error envelope: ${response.text.slice(0, 200)}`);
    }
  };
  const created = async (path: string, body: unknown) => {
    const response = await api.post(path, body);
    assert.ok(response.status === 201 || response.status === 200, `${path}: ${response.text}`);
    return response.body;
  };

  before(async () => {
    api = server.api;
    ids.user = (await created('/api/v2/users/', { email: uniqueEmail(), name: 'Fuzz' })).public_id;
    ids.group = (await created('/api/v2/groups/', { name: 'Fuzz group' })).public_id;
    ids.article = (await created('/api/v2/articles/', { name: 'Fuzz article' })).public_id;
    ids.track = (await created('/api/v2/tracks/', { name: 'Fuzz track', items: [ids.article] })).public_id;
    ids.channel = (await created('/api/v2/channels/', { name: 'Fuzz channel' })).public_id;
    ids.location = String((await created('/api/v2/locations/', { name: 'Fuzz place', timezone: 'Europe/Berlin' })).id);
    ids.series = (
      await created('/api/v2/event-series/', { name: 'Fuzz series', duration: 60, is_local: true, enrollment_limit: 5 })
    ).public_id;
    ids.event = (
      await created('/api/v2/events/', {
        name: 'Fuzz event',
        event_series_id: ids.series,
        timeslots: [{ starts_at: '2027-03-28T09:00:00Z', duration: 'PT1H' }],
      })
    ).public_id;
    ids.enrollment = (
      await created('/api/v2/enrollments/', { user_id: ids.user, event_id: ids.event, attendance_method: 'in_person' })
    ).public_id;
    ids.assignment = (await created('/api/v2/assignments/', { user_id: ids.user, content_item_id: ids.article })).public_id;
    ids.report = (
      await created('/api/v2/saved-reports/', { name: 'Fuzz report', resource: 'assignments', expression: 'eq(state,not_started)' })
    ).public_id;
    ids.token = (await created('/api/v2/api-tokens/', { name: 'fuzz' })).public_id;
    ids.webhook = (await created('/public_api/v2/webhooks/', { url: 'http://127.0.0.1:9/hook', events: ['article.*'] })).id;
    const job = await api.post('/api/v2/users/bulk/', { users: [{ email: uniqueEmail(), name: 'Fuzz bulk' }] });
    assert.equal(job.status, 202, job.text);
    ids.job = job.body.id;
  });

  /** Every route, with `{kind}` standing for an id of that kind. */
  const routes: Array<[string, string]> = [
    ['GET', '/api/v2/users/{user}'],
    ['PATCH', '/api/v2/users/{user}'],
    ['GET', '/api/v2/users/bulk/{user}'],
    ['POST', '/api/v2/users/bulk'],
    ['GET', '/api/v2/groups/{group}'],
    ['PATCH', '/api/v2/groups/{group}'],
    ['GET', '/api/v2/groups/{group}/members'],
    ['POST', '/api/v2/groups/{group}/members'],
    ['PUT', '/api/v2/groups/{group}/members'],
    ['DELETE', '/api/v2/groups/{group}/members'],
    ['POST', '/api/v2/groups/{group}/owners'],
    ['PUT', '/api/v2/groups/{group}/owners'],
    ['DELETE', '/api/v2/groups/{group}/owners'],
    ['GET', '/api/v2/api-tokens/{token}'],
    ['POST', '/api/v2/api-tokens'],
    ['GET', '/api/v2/content-items/{article}'],
    ['PATCH', '/api/v2/content-items/{article}'],
    ['GET', '/api/v2/content-items/{article}/tags'],
    ['POST', '/api/v2/content-items/{article}/tags'],
    ['PUT', '/api/v2/content-items/{article}/tags'],
    ['DELETE', '/api/v2/content-items/{article}/tags'],
    ['POST', '/api/v2/content-items/bulk/archive'],
    ['POST', '/api/v2/content-items/bulk/unarchive'],
    ['POST', '/api/v2/content-items/bulk/tags'],
    ['PUT', '/api/v2/content-items/bulk/tags'],
    ['DELETE', '/api/v2/content-items/bulk/tags'],
    ['POST', '/api/v2/content-items/{article}/media-status'],
    ['GET', '/api/v2/articles/{article}'],
    ['PATCH', '/api/v2/articles/{article}'],
    ['PATCH', '/api/v2/tracks/{track}'],
    ['GET', '/api/v2/channels/{channel}'],
    ['PATCH', '/api/v2/channels/{channel}'],
    ['GET', '/api/v2/locations/{location}'],
    ['GET', '/api/v2/event-series/{series}'],
    ['PATCH', '/api/v2/event-series/{series}'],
    ['GET', '/api/v2/event-series/{series}/facilitators'],
    ['PUT', '/api/v2/event-series/{series}/facilitators'],
    ['PATCH', '/api/v2/event-series/bulk'],
    ['GET', '/api/v2/events/{event}'],
    ['PATCH', '/api/v2/events/{event}'],
    ['GET', '/api/v2/events/{event}/facilitators'],
    ['PUT', '/api/v2/events/{event}/facilitators'],
    ['PATCH', '/api/v2/events/bulk'],
    ['GET', '/api/v2/events/bulk/{event}'],
    ['GET', '/api/v2/enrollments/{enrollment}'],
    ['POST', '/api/v2/enrollments/{enrollment}/checkin'],
    ['POST', '/api/v2/enrollments/{enrollment}/undo-checkin'],
    ['POST', '/api/v2/enrollments/bulk'],
    ['GET', '/api/v2/enrollments/bulk/{enrollment}'],
    ['GET', '/api/v2/assignments/{assignment}'],
    ['PATCH', '/api/v2/assignments/{assignment}'],
    ['POST', '/api/v2/assignments/{assignment}/progress'],
    ['POST', '/api/v2/assignments/{assignment}/feedback'],
    ['POST', '/api/v2/assignments/{assignment}/complete'],
    ['POST', '/api/v2/assignments/{assignment}/drop'],
    ['POST', '/api/v2/assignments/{assignment}/exempt'],
    ['POST', '/api/v2/assignments/{assignment}/undo-complete'],
    ['POST', '/api/v2/assignments/{assignment}/undo-exempt'],
    ['POST', '/api/v2/assignments/bulk'],
    ['GET', '/api/v2/assignments/bulk/{assignment}'],
    ['GET', '/api/v2/saved-reports/{report}'],
    ['PATCH', '/api/v2/saved-reports/{report}'],
    ['GET', '/api/v2/saved-reports/{report}/results'],
    ['GET', '/public_api/v2/webhooks/{webhook}'],
    ['PATCH', '/public_api/v2/webhooks/{webhook}'],
    ['GET', '/public_api/v2/webhooks/{webhook}/deliveries'],
    ['GET', '/api/v2/users/bulk/{user}/items'],
    ['GET', '/api/v2/assignments/bulk/{assignment}/items'],
    ['GET', '/api/v2/enrollments/bulk/{enrollment}/items'],
    ['GET', '/api/v2/events/bulk/{event}/items'],
    ['GET', '/api/v2/event-series/bulk/{series}/items'],
  ];
  const lists = [
    '/api/v2/users',
    '/api/v2/groups',
    '/api/v2/api-tokens',
    '/api/v2/content-items',
    '/api/v2/articles',
    '/api/v2/videos',
    '/api/v2/tracks',
    '/api/v2/channels',
    '/api/v2/locations',
    '/api/v2/event-series',
    '/api/v2/events',
    '/api/v2/enrollments',
    '/api/v2/assignments',
    '/api/v2/saved-reports',
    `/api/v2/saved-reports/{report}/results`,
    '/api/v2/insights/assignments/completion',
    '/api/v2/insights/assignments/overdue',
    '/api/v2/insights/assignments/feedback',
    '/api/v2/insights/assignments/ratings',
    '/api/v2/insights/assignments/pass-fail',
    '/public_api/v2/webhooks',
    '/public_api/v2/webhooks/{webhook}/deliveries',
    '/api/v2/me',
    '/healthz',
    '/readyz',
    '/api/v2/users/bulk/{job}/items',
  ];
  const fill = (path: string, override?: string) => path.replace(/\{(\w+)\}/g, (_, kind: string) => override ?? ids[kind]!);

  it('answers hostile ids, bodies and query strings without a server error', async () => {
    for (const [method, path] of routes) {
      for (const id of HOSTILE_IDS) check(`${method} ${fill(path, id)}`, await api.request(method, fill(path, encodeURIComponent(id))));
      if (method !== 'GET') {
        for (const raw of HOSTILE_BODIES) check(`${method} ${path} body ${raw}`, await api.request(method, fill(path), { raw }));
        for (const value of HOSTILE_VALUES) {
          for (const field of [
            'name',
            'items',
            'member_ids',
            'timeslots',
            'progress',
            'rating',
            'expression',
            'events',
            'url',
            'tags',
            'users',
            'assignments',
            'enrollments',
            'status',
          ]) {
            check(
              `${method} ${path} {${field}: ${JSON.stringify(value)?.slice(0, 20)}}`,
              await api.request(method, fill(path), { body: { [field]: value } }),
            );
          }
        }
      }
    }
    for (const list of lists) {
      for (const query of HOSTILE_QUERIES) check(`GET ${list}?${query}`, await api.get(`${fill(list)}?${query}`));
      for (const id of HOSTILE_IDS) {
        for (const filter of [
          'user',
          'group',
          'manager',
          'content_item',
          'event',
          'channel',
          'event_series_id',
          'content_item_id',
          'user_id',
          'group_id',
        ]) {
          check(`GET ${list}?${filter}=${id}`, await api.get(`${fill(list)}?${filter}=${encodeURIComponent(id)}`));
        }
      }
    }
    assert.deepEqual(failures, []);
  });

  it('answers 1 000 tags and 1 000-term expressions without a server error', async () => {
    const tags = Array.from({ length: 1000 }, (_, i) => `t${i}`).join(',');
    for (const list of lists) {
      for (const query of [`tag_all=${tags}`, `tag=${tags}`, `search=${tags}`])
        check(`GET ${list}?${query.slice(0, 20)}…`, await api.get(`${fill(list)}?${query}`));
    }
    const repeated = (count: number, term: string) => Array(count).fill(term).join(',');
    const expressions = [
      repeated(1000, 'name=a'),
      `or(${repeated(1000, 'name=a')})`,
      `and(${repeated(1000, 'eq(name,a)')})`.slice(0, 9_900) + ')',
      `in(name,(${repeated(1000, 'a')}))`,
      `out(public_id,(${repeated(200, crypto.randomUUID())}))`,
      repeated(1000, 'search=a'),
      `${'not('.repeat(2000)}a=1${')'.repeat(2000)}`,
      `${'('.repeat(5000)}a=1${')'.repeat(5000)}`,
    ];
    for (const resource of ['users', 'groups', 'assignments', 'content_items', 'events', 'enrollments']) {
      for (const expression of expressions) {
        const label = `${resource} ${expression.slice(0, 20)}…`;
        const saved = await api.post('/api/v2/saved-reports/', { name: 'big', resource, expression });
        check(`POST report ${label}`, saved);
        check(`PATCH report ${label}`, await api.patch(`/api/v2/saved-reports/${ids.report}/`, { expression }));
        if (saved.status === 201) check(`GET results ${label}`, await api.get(`/api/v2/saved-reports/${saved.body.public_id}/results/`));
      }
    }
    assert.deepEqual(failures, []);
  });

  it('answers every field of a valid create set to the wrong type without a server error', async () => {
    const creates: Array<[string, Record<string, unknown>]> = [
      ['/api/v2/users/', { email: uniqueEmail(), name: 'x', role: 'user', employee_id: 'e', manager: ids.user }],
      ['/api/v2/groups/', { name: 'x', source: 'y' }],
      [
        '/api/v2/articles/',
        {
          name: 'x',
          description: 'd',
          tags: ['t'],
          channel_id: ids.channel,
          groups: [ids.group],
          is_hidden: false,
          is_self_assignable: true,
          is_completable: true,
          duration: 5,
        },
      ],
      ['/api/v2/links/', { name: 'x', url: 'https://example.com' }],
      ['/api/v2/scheduled-tracks/', { name: 'x', items: [ids.article], starts_on: '2027-01-01', ends_on: '2027-02-01' }],
      ['/api/v2/channels/', { name: 'x' }],
      ['/api/v2/locations/', { name: 'x', timezone: 'UTC' }],
      [
        '/api/v2/event-series/',
        {
          name: 'x',
          duration: 30,
          location_id: Number(ids.location),
          is_local: true,
          is_online: true,
          enrollment_limit: 1,
          wait_list_limit: 1,
          online_enrollment_limit: 0,
          online_wait_list_limit: 0,
        },
      ],
      [
        '/api/v2/events/',
        {
          name: 'x',
          event_series_id: ids.series,
          location_id: Number(ids.location),
          tags: [],
          timeslots: [{ starts_at: '2027-01-01T10:00:00Z', duration: 'PT30M', rooms_info: 'r', watch_link: 'https://example.com' }],
        },
      ],
      ['/api/v2/enrollments/', { user_id: ids.user, event_id: ids.event, attendance_method: 'in_person', accept_waitlist: true }],
      [
        '/api/v2/assignments/',
        { user_id: ids.user, content_item_id: ids.track, due_date: '2027-01-01', expires_at: '2027-01-01T00:00:00Z' },
      ],
      ['/api/v2/saved-reports/', { name: 'x', resource: 'users', expression: 'eq(role,admin)', ordering: '-date_joined' }],
      ['/api/v2/api-tokens/', { name: 'x', scopes: ['users:read'], expires_at: '2099-01-01T00:00:00Z' }],
      ['/public_api/v2/webhooks/', { url: 'http://127.0.0.1:9/x', events: ['article.created'], description: 'd', is_active: true }],
    ];
    for (const [path, valid] of creates) {
      for (const field of Object.keys(valid)) {
        for (const value of HOSTILE_VALUES) {
          check(`POST ${path} ${field}=${JSON.stringify(value)?.slice(0, 20)}`, await api.post(path, { ...valid, [field]: value }));
        }
      }
    }
    assert.deepEqual(failures, []);
  });

  const rawEnvelope = (label: string, response: RawResponse, status: number, code: string) => {
    assert.equal(response.status, status, `${label}: ${response.text}`);
    assert.equal(response.body?.error?.code, code, `${label}: ${response.text}`);
    assert.equal(response.body.error.request_id, response.headers['x-request-id'], label);
    assert.match(response.headers['x-ratelimit-remaining'] ?? '', /^\d+$/, label);
  };

  it('answers malformed HTTP, unknown methods and targets that are not one path in the envelope', async () => {
    const auth = `Authorization: Bearer ${server.adminToken}\r\n`;
    const get = (target: string) => `GET ${target} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`;
    const post = (framing: string, body: string) => `POST /api/v2/groups/ HTTP/1.1\r\nHost: x\r\n${auth}${framing}\r\n${body}`;
    const cases: Array<[string, string, number, string]> = [
      ['unknown method', `FOO /api/v2/users/ HTTP/1.1\r\nHost: x\r\n${auth}\r\n`, 400, 'bad_request'],
      ['lower-case method', `get /api/v2/users/ HTTP/1.1\r\nHost: x\r\n${auth}\r\n`, 400, 'bad_request'],
      ['TLS hello', '\x16\x03\x01\x00\xa5\x01\x00\r\n\r\n', 400, 'bad_request'],
      ['WebDAV method', `PROPFIND /api/v2/users/ HTTP/1.1\r\nHost: x\r\n${auth}\r\n`, 405, 'method_not_allowed'],
      ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 400, 'bad_request'],
      ['// before a host-like segment', get('//x/api/v2/api-tokens/'), 400, 'bad_request'],
      ['/// before the path', get('///api/v2/users/'), 400, 'bad_request'],
      ['/\\ before a host-like segment', get('/\\x/api/v2/api-tokens/'), 400, 'bad_request'],
      ['dot segments', get('/api/v2/x/../api-tokens/'), 400, 'bad_request'],
      ['absolute-form', get('http://evil.example/api/v2/api-tokens/'), 400, 'bad_request'],
      ['asterisk-form', `OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n`, 400, 'bad_request'],
      ['space in the target', get('/api/v2/users/ x'), 400, 'bad_request'],
      ['no Host', `GET /api/v2/users/ HTTP/1.1\r\n${auth}\r\n`, 400, 'bad_request'],
      [
        'Content-Length and Transfer-Encoding',
        post('Content-Length: 5\r\nTransfer-Encoding: chunked\r\n', '0\r\n\r\n'),
        400,
        'bad_request',
      ],
      ['two Content-Lengths', post('Content-Length: 2\r\nContent-Length: 3\r\n', '{}'), 400, 'bad_request'],
      ['bad Content-Length', post('Content-Length: 2x\r\n', '{}'), 400, 'bad_request'],
      ['bad chunk size', post('Transfer-Encoding: chunked\r\n', 'zz\r\n{}\r\n'), 400, 'bad_request'],
      [
        'headers over the limit',
        `GET /api/v2/users/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        431,
        'headers_too_large',
      ],
      ['unknown expectation', `GET /api/v2/users/ HTTP/1.1\r\nHost: x\r\n${auth}Expect: magic\r\n\r\n`, 417, 'expectation_failed'],
    ];
    for (const [label, request, status, code] of cases) rawEnvelope(label, await rawRequest(server.url, request), status, code);
    // a broken request pipelined behind a good one must not be answered in the good one's place
    const pipelined = await rawRequest(server.url, get('/api/v2/users/') + 'FOO /api/v2/users/ HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal(pipelined.status, 200, pipelined.text);
    assert.equal(pipelined.closed, true);
    // the access log has every one of them
    await server.waitForOutput(/"status":431/);
    await server.waitForOutput(/"status":400[^\n]*"reason":"HPE_INVALID_METHOD"/);
  });

  it('answers a 100 MB streamed body with 413 and Connection: close long before it is sent', async () => {
    const totalBytes = 100 * 1024 * 1024;
    const head = (framing: string) =>
      `POST /api/v2/groups/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.adminToken}\r\nContent-Type: application/json\r\n${framing}\r\n`;
    const cases: Array<[string, string, boolean]> = [
      ['Content-Length', `Content-Length: ${totalBytes}\r\n`, false],
      ['chunked', 'Transfer-Encoding: chunked\r\n', true],
      ['Expect: 100-continue', `Content-Length: ${totalBytes}\r\nExpect: 100-continue\r\n`, false],
    ];
    for (const [label, framing, chunked] of cases) {
      const { response, bytesSent } = await streamBody(server.url, head(framing), { totalBytes, chunked });
      rawEnvelope(label, response, 413, 'payload_too_large');
      assert.equal(response.headers.connection, 'close', label);
      assert.equal(response.closed, true, label);
      assert.ok(bytesSent < totalBytes / 4, `${label}: ${bytesSent} bytes were sent before the 413`);
      await server.waitForOutput(new RegExp(`"request_id":"${response.body.error.request_id}"[^\n]*"status":413`));
    }
    assert.equal((await api.get('/api/v2/groups/')).status, 200, 'the server still serves');
  });
});
