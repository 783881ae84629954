/**
 * format=csv|ndjson on list routes and saved report results: every matching row, in the list's
 * order, with the list's filters and visibility, as CSV (dotted columns, formula guard) or NDJSON.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { waitForJob } from '../helpers/bulk-jobs.ts';
import { expectError, runCli, tempDir, uniqueEmail, userWithToken, useServer, type TestServer } from '../helpers/server.ts';

interface Exported {
  status: number;
  headers: Headers;
  text: string;
}

/** An export read whole, with fetch: the API client parses JSON, which an export is not. */
async function exported(server: TestServer, path: string, token = server.adminToken): Promise<Exported> {
  const response = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const ndjsonOf = (text: string) =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const csvOf = (text: string) => parse(text, { columns: true }) as Array<Record<string, string>>;

/** Every item of a list through its JSON pages, in order. */
async function pagedItems(server: TestServer, path: string, token = server.adminToken): Promise<any[]> {
  const items: any[] = [];
  for (let page = 1; ; page++) {
    const response = await server.api.get(`${path}${path.includes('?') ? '&' : '?'}page=${page}&page_size=100`, { token });
    assert.equal(response.status, 200, response.text);
    items.push(...response.body.data);
    if (response.body.data.length < 100) return items;
  }
}

/** A user's CSV columns, the manager reference as dotted columns. */
const userColumns = [
  'public_id',
  'email',
  'name',
  'role',
  'employee_id',
  'is_active',
  'manager.public_id',
  'manager.name',
  'manager.email',
  'date_joined',
  'email_notifications',
];

describe('exports', () => {
  // the 2 500-row test polls its bulk jobs: more requests than the default limit allows on PostgreSQL
  const server = useServer({ args: ['--rate-limit', '100000'] });
  const marker = `exp${process.pid}x${Date.now()}`;
  const today = new Date().toISOString().slice(0, 10);

  it('write users as CSV with dotted columns for a reference and formulas quoted, the API unchanged', async () => {
    const boss = (await server.api.post('/api/v2/users/', { email: uniqueEmail(marker), name: `Boss ${marker}` })).body;
    const formula = `=HYPERLINK("http://evil.example","${marker}")`;
    const created = await server.api.post('/api/v2/users/', { email: uniqueEmail(marker), name: formula, manager: boss.public_id });
    assert.equal(created.status, 201, created.text);
    assert.equal((await server.api.get(`/api/v2/users/${created.body.public_id}/`)).body.name, formula, 'stored and returned as sent');

    const response = await exported(server, `/api/v2/users/?search=${marker}&ordering=name&format=csv`);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(response.headers.get('content-disposition'), `attachment; filename="users-${today}.csv"`);
    const header = response.text.split('\n')[0]!.split(',');
    assert.deepEqual(header, userColumns);
    const rows = csvOf(response.text);
    assert.equal(rows.length, 2);
    const [quoted, bossRow] = rows; // '=' sorts before 'B'
    assert.equal(quoted!.name, `'${formula}`);
    assert.equal(quoted!['manager.public_id'], boss.public_id);
    assert.equal(quoted!['manager.email'], boss.email);
    assert.equal(quoted!.is_active, 'true');
    assert.equal(bossRow!.public_id, boss.public_id);
    assert.equal(bossRow!['manager.public_id'], '', 'a null reference is empty cells');
    assert.equal(bossRow!.employee_id, '');
  });

  it('write the header row of an empty CSV export, and nothing for an empty NDJSON one', async () => {
    const response = await exported(server, `/api/v2/users/?search=${marker}nobody&format=csv`);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(parse(response.text), [userColumns]);
    const ndjson = await exported(server, `/api/v2/users/?search=${marker}nobody&format=ndjson`);
    assert.equal(ndjson.status, 200, ndjson.text);
    assert.equal(ndjson.text, '');
  });

  it('write NDJSON lines of exactly the list items, and follow the filters and ordering', async () => {
    const tag = `${marker}n`;
    for (const name of ['Carol', 'alice', 'Bob']) {
      assert.equal(
        (await server.api.post('/api/v2/users/', { email: uniqueEmail(tag), name: `${name} ${tag}`, role: 'organizer' })).status,
        201,
      );
    }
    await server.api.post('/api/v2/users/', { email: uniqueEmail(tag), name: `Dave ${tag}`, role: 'user' });
    const query = `/api/v2/users/?search=${tag}&role=organizer&ordering=-name`;
    const response = await exported(server, `${query}&format=ndjson&page=3&page_size=1`);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.headers.get('content-type'), 'application/x-ndjson');
    assert.equal(response.headers.get('content-disposition'), `attachment; filename="users-${today}.ndjson"`);
    const lines = ndjsonOf(response.text);
    assert.deepEqual(
      lines.map((user) => user.name),
      [`Carol ${tag}`, `Bob ${tag}`, `alice ${tag}`],
    );
    assert.deepEqual(lines, (await server.api.get(query)).body.data, 'page and page_size are ignored; the items are the list items');
  });

  it('show a learner only what its list shows', async () => {
    const learner = await userWithToken(server, 'user');
    const other = (await server.api.post('/api/v2/users/', { email: uniqueEmail(marker), name: 'Other' })).body;
    const content = (await server.api.post('/api/v2/articles/', { name: `Article ${marker}` })).body;
    for (const user of [learner.user, other]) {
      const assigned = await server.api.post('/api/v2/assignments/', { user_id: user.public_id, content_item_id: content.public_id });
      assert.equal(assigned.status, 201, assigned.text);
    }
    const response = await exported(server, '/api/v2/assignments/?format=csv', learner.token);
    assert.equal(response.status, 200, response.text);
    const rows = csvOf(response.text);
    assert.deepEqual(
      rows.map((row) => row['user.public_id']),
      [learner.user.public_id],
    );
    assert.equal(rows[0]!['content_item.public_id'], content.public_id);
    // a list the learner may not read is refused as the list is
    const refused = await exported(server, '/api/v2/users/?format=csv', learner.token);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(JSON.parse(refused.text).error.code, 'forbidden');
  });

  it('refuse an unknown format, and a list parameter the list refuses, with the error envelope', async () => {
    expectError(await server.api.get('/api/v2/users/?format=xlsx'), 400, 'bad_request');
    const badOrdering = await exported(server, '/api/v2/users/?format=csv&ordering=password');
    assert.equal(badOrdering.status, 400);
    assert.equal(JSON.parse(badOrdering.text).error.code, 'bad_request');
    // format=json is the ordinary page
    const page = await server.api.get('/api/v2/users/?format=json&page_size=1');
    assert.equal(page.status, 200);
    assert.equal(page.body.data.length, 1);
  });

  it("export a saved report's results, narrowed by its expression", async () => {
    const tag = `${marker}r`;
    const emails = [uniqueEmail(tag), uniqueEmail(tag)];
    for (const email of emails) await server.api.post('/api/v2/users/', { email, name: `Reported ${tag}`, role: 'organizer' });
    await server.api.post('/api/v2/users/', { email: uniqueEmail(tag), name: `Left out ${tag}`, role: 'user' });
    const report = await server.api.post('/api/v2/saved-reports/', {
      name: `Organizers ${tag}`,
      resource: 'users',
      expression: `and(eq(role,organizer),ilike(name,*${tag}*))`,
      ordering: 'email',
    });
    assert.equal(report.status, 201, report.text);
    const path = `/api/v2/saved-reports/${report.body.public_id}/results/`;
    const response = await exported(server, `${path}?format=csv`);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.headers.get('content-disposition'), `attachment; filename="saved-reports-results-${today}.csv"`);
    assert.deepEqual(
      csvOf(response.text).map((row) => row.email),
      [...emails].sort(),
    );
    const missing = await exported(server, `/api/v2/saved-reports/${crypto.randomUUID()}/results/?format=csv`);
    assert.equal(missing.status, 404);
  });

  it('write every row of a list longer than one batch exactly once, in its order', async () => {
    const tag = `${marker}b`;
    for (let job = 0; job < 5; job++) {
      // a third with no employee_id: a nullable sort key whose nulls span batches
      const users = Array.from({ length: 500 }, (_, i) => ({
        email: `${tag}.${job}.${i}@example.com`,
        name: `Bulk ${tag} ${(i * 7) % 13}`,
        employee_id: i % 3 === 0 ? null : `E-${i % 11}`,
      }));
      const submitted = await server.api.post('/api/v2/users/bulk/', { users });
      assert.equal(submitted.status, 202, submitted.text);
      const done = await waitForJob(server.api, `/api/v2/users/bulk/${submitted.body.id}/`);
      assert.equal(done.status, 'completed');
    }
    // names repeat, so the order within a name is the tiebreak's: batches must continue exactly there
    const query = `/api/v2/users/?search=${tag}&ordering=-name`;
    const lines = ndjsonOf((await exported(server, `${query}&format=ndjson`)).text);
    assert.equal(lines.length, 2500);
    assert.equal(new Set(lines.map((user) => user.public_id)).size, 2500);
    assert.deepEqual(
      lines.map((user) => user.public_id),
      (await pagedItems(server, query)).map((user) => user.public_id),
    );
    const csv = csvOf((await exported(server, `${query}&format=csv`)).text);
    assert.deepEqual(
      csv.map((row) => row.public_id),
      lines.map((user) => user.public_id),
    );
    for (const ordering of ['employee_id,name', '-employee_id,-email']) {
      const byKey = `/api/v2/users/?search=${tag}&ordering=${ordering}`;
      const ids = ndjsonOf((await exported(server, `${byKey}&format=ndjson`)).text).map((user) => user.public_id);
      assert.deepEqual(
        ids,
        (await pagedItems(server, byKey)).map((user) => user.public_id),
        ordering,
      );
    }
  });

  it('follow a cursor-paged list (the audit log) cursor by cursor', async () => {
    const pages: any[] = [];
    for (let cursor = ''; ;) {
      const response = await server.api.get(`/api/v2/audit-log/?page_size=100${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(response.status, 200, response.text);
      pages.push(...response.body.data);
      if (!response.body.meta.next_cursor) break;
      cursor = response.body.meta.next_cursor;
    }
    assert.ok(pages.length > 100, 'more than one page of entries');
    const response = await exported(server, '/api/v2/audit-log/?format=ndjson&page_size=5');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(ndjsonOf(response.text), pages);
  });

  it('count as one request against the rate limit', async () => {
    const before = Number((await server.api.get('/api/v2/users/?page_size=1')).headers.get('x-ratelimit-remaining'));
    const response = await exported(server, '/api/v2/users/?format=csv');
    assert.equal(response.status, 200);
    assert.ok(csvOf(response.text).length > 1000, 'more than one batch was read');
    if (server.urls.length === 1) assert.equal(Number(response.headers.get('x-ratelimit-remaining')), before - 1);
  });

  it('are written by `lectern export`, to stdout or a file, with filters; HTTP errors exit non-zero', async () => {
    const tag = `${marker}c`;
    for (const name of ['One', 'Two']) await server.api.post('/api/v2/users/', { email: uniqueEmail(tag), name: `${name} ${tag}` });
    const common = ['--url', server.url, '--token', server.adminToken];
    const out = await runCli(['export', 'users', '--search', tag, '--ordering', '-name', '--format', 'csv', ...common]);
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(
      csvOf(out.stdout).map((row) => row.name),
      [`Two ${tag}`, `One ${tag}`],
    );
    const file = join(tempDir(), 'users.csv');
    const written = await runCli(['export', 'users', '--search', tag, '--format', 'csv', '--output', file, ...common]);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(written.stdout, '');
    assert.equal(csvOf(readFileSync(file, 'utf8')).length, 2);
    const filtered = await runCli(['export', 'users', '--filter', 'role=admin', '--format', 'ndjson', ...common]);
    assert.equal(filtered.code, 0, filtered.stderr);
    assert.ok(ndjsonOf(filtered.stdout).every((user) => user.role === 'admin'));

    const failed = await runCli(['export', 'users', '--format', 'csv', '--url', server.url, '--token', 'lpat_wrong']);
    assert.notEqual(failed.code, 0);
    assert.match(failed.stderr, /401/);
    const unknown = await runCli(['export', 'nonsense', '--format', 'csv', ...common]);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /nonsense/);
  });
});
