/**
 * `lectern import` end to end: the built CLI against a real server, on hostile files, checking
 * the report line by line and the server's state.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { lecternBin, runCli, startServer, tempDir, uniqueEmail, type TestServer, useServer } from '../helpers/server.ts';

const dir = tempDir();
let files = 0;
const csvFile = (content: string) => {
  const path = join(dir, `input-${files++}.csv`);
  writeFileSync(path, content);
  return path;
};
const readReport = (path: string): string[][] => parse(readFileSync(path));
const HEADER = ['row', 'status', 'public_id', 'error_code', 'error_message'];

function importer(server: TestServer, args: string[], env: Record<string, string> = {}) {
  return runCli(['import', ...args, '--url', server.url, '--token', server.adminToken, '--no-progress'], env);
}

/** One report line, as [row, status, public_id, error_code] plus a pattern for the message. */
function expectLine(line: string[] | undefined, row: number, status: string, code = '', message?: RegExp): void {
  assert.ok(line, `no report line for row ${row}`);
  assert.equal(line[0], String(row));
  assert.equal(line[1], status, `row ${row}: ${line.join(' | ')}`);
  assert.equal(line[3], code, `row ${row}: ${line.join(' | ')}`);
  if (message) assert.match(line[4]!, message, `row ${row}`);
}

const userCount = async (server: TestServer) => (await server.api.get('/api/v2/users/?page_size=1')).body.meta.total_count as number;

describe('lectern import', () => {
  const server = useServer({ args: ['--rate-limit', '100000'] });

  it('refuses a bad header, broken quoting, a missing file or flag with exit 2, sending nothing', async () => {
    const before = await userCount(server);
    const cases: [string, string, RegExp][] = [
      ['users', 'email,name,phone\r\na@example.com,A,1\r\n', /unknown column 'phone'/],
      ['users', 'Email\r\na@example.com\r\n', /missing required column 'name'/],
      ['assignments', 'content_item_id,due_date\r\n', /'user_email' or 'user_id'/],
      ['enrollments', 'user_id,event_id,attendance_method,User_ID\r\n', /'user_id' appears twice/],
      ['users', 'email,name\r\n"a@example.com,Ann\r\nb@example.com,Bob\r\n', /not valid CSV: Quote Not Closed/],
      ['users', '', /is empty/],
    ];
    for (const [kind, content, message] of cases) {
      const path = csvFile(content);
      const result = await importer(server, [kind, path]);
      assert.equal(result.code, 2, `${content}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.match(result.stderr, /^error: .*nothing was sent\n$/);
      assert.equal(existsSync(`${path}.report.csv`), false, 'no report for a refused file');
    }
    assert.equal((await importer(server, ['users', join(dir, 'absent.csv')])).code, 2);
    const noUrl = await runCli(['import', 'users', csvFile('email,name\n'), '--token', 'x'], { LECTERN_URL: '' });
    assert.equal(noUrl.code, 2, noUrl.stderr);
    assert.equal((await importer(server, ['groups', csvFile('name\n')])).code, 2);
    assert.equal(await userCount(server), before);
  });

  it('imports users from a hostile file, reports each row, and re-runs safely with --update', async () => {
    const taken = (await server.api.post('/api/v2/users/', { email: uniqueEmail('taken'), name: 'Already Here' })).body;
    const [ada, grace, dee] = [uniqueEmail('ada'), uniqueEmail('grace'), uniqueEmail('dee')];
    const path = csvFile(
      [
        '\uFEFFEmail,NAME,Role,employee_id',
        `${ada},"Lovelace, Ada",admin,E1`,
        'not-an-email,Bob,user,',
        `${grace},"Grace\r\n""Amazing"" Hopper",regular,`,
        `${ada.toUpperCase()},Ada Again,user,`,
        `${taken.email},Existing Person,,`,
        `${dee},Dee,king,`,
        '',
        ',,,',
        '',
        '',
      ].join('\r\n'),
    );
    const first = await importer(server, ['users', path]);
    assert.equal(first.code, 1, first.stderr);
    assert.equal(first.stdout, `Imported 6 rows: 2 created, 1 existing, 0 updated, 3 failed. Report: ${path}.report.csv\n`);
    const report = readReport(`${path}.report.csv`);
    assert.deepEqual(report[0], [...HEADER, 'Email', 'NAME', 'Role', 'employee_id']);
    assert.equal(report.length, 7, 'one line per data row, blank lines are not rows');
    expectLine(report[1], 1, 'created');
    expectLine(report[2], 2, 'failed', 'validation_error', /^email: Enter a valid email address\.$/);
    expectLine(report[3], 3, 'created');
    expectLine(report[4], 4, 'failed', 'duplicate_row', /Row 1 has the same email/);
    expectLine(report[5], 5, 'existing');
    expectLine(report[6], 6, 'failed', 'validation_error', /^role: Must be one of/);
    assert.deepEqual(report[3]!.slice(5), [grace, 'Grace\r\n"Amazing" Hopper', 'regular', ''], 'input cells unchanged');
    assert.equal(report[5]![2], taken.public_id);

    const created = (await server.api.get(`/api/v2/users/${report[1]![2]}/`)).body;
    assert.deepEqual([created.email, created.name, created.role, created.employee_id], [ada, 'Lovelace, Ada', 'admin', 'E1']);
    const hopper = (await server.api.get(`/api/v2/users/${report[3]![2]}/`)).body;
    assert.deepEqual([hopper.name, hopper.role], ['Grace\r\n"Amazing" Hopper', 'user']);
    assert.equal((await server.api.get(`/api/v2/users/?email=${encodeURIComponent(dee)}`)).body.meta.total_count, 0);

    const again = await importer(server, ['users', path, '--update', '--json']);
    assert.equal(again.code, 1, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout), { total: 6, created: 0, existing: 2, updated: 1, failed: 3, report: `${path}.report.csv` });
    const rerun = readReport(`${path}.report.csv`);
    expectLine(rerun[1], 1, 'existing');
    expectLine(rerun[3], 3, 'existing');
    expectLine(rerun[5], 5, 'updated');
    assert.equal(rerun[1]![2], report[1]![2]);
    assert.equal((await server.api.get(`/api/v2/users/${taken.public_id}/`)).body.name, 'Existing Person');
  });

  it('imports 1 200 users in several jobs, every row in order, summary as JSON', async () => {
    const tag = `many${process.pid}x${Date.now()}`;
    const rows = Array.from({ length: 1200 }, (_, i) => `${tag}.${i}@example.com,Person ${i}`);
    const path = csvFile(`email,name\n${rows.join('\n')}\n`);
    const reportPath = join(dir, 'many-report.csv');
    const result = await importer(server, ['users', path, '--json', '--report', reportPath]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { total: 1200, created: 1200, existing: 0, updated: 0, failed: 0, report: reportPath });
    const report = readReport(reportPath).slice(1);
    assert.deepEqual(
      report.map((line) => line[0]),
      rows.map((_, i) => String(i + 1)),
    );
    assert.equal(new Set(report.map((line) => line[2])).size, 1200, 'a distinct public_id per row');
    const listed = await server.api.get(`/api/v2/users/?search=${tag}&page_size=1`);
    assert.equal(listed.body.meta.total_count, 1200);
    const last = (await server.api.get(`/api/v2/users/${report[1199]![2]}/`)).body;
    assert.equal(last.email, `${tag}.1199@example.com`);
  });

  it('imports assignments by user email or id, create-or-get on a re-run', async () => {
    const article = (await server.api.post('/api/v2/articles/', { name: 'Safety' })).body;
    const other = (await server.api.post('/api/v2/articles/', { name: 'Ethics' })).body;
    const ann = (await server.api.post('/api/v2/users/', { email: uniqueEmail('ann'), name: 'Ann' })).body;
    const ben = (await server.api.post('/api/v2/users/', { email: uniqueEmail('ben'), name: 'Ben' })).body;
    const already = await server.api.post('/api/v2/assignments/', { user_id: ben.public_id, content_item_id: other.public_id });
    assert.equal(already.status, 201);
    const path = csvFile(
      [
        'User_Email,user_id,content_item_id,due_date',
        `${ann.email},,${article.public_id},2027-01-31`,
        `,${ben.public_id},${article.public_id},`,
        `nobody.${Date.now()}@example.com,,${article.public_id},`,
        `${ann.email.toUpperCase()},,${article.public_id},2027-03-01`,
        `${ann.email},,${other.public_id},2027-02-30`,
        `,${ben.public_id},${other.public_id},`,
        `${ann.email},,not-a-uuid,`,
        `${ann.email},,00000000-0000-4000-8000-000000000000,`,
        `${ann.email},${ann.public_id},${other.public_id},`,
      ].join('\n'),
    );
    const result = await importer(server, ['assignments', path]);
    assert.equal(result.code, 1, result.stderr);
    const report = readReport(`${path}.report.csv`);
    assert.equal(report.length, 10);
    expectLine(report[1], 1, 'created');
    expectLine(report[2], 2, 'created');
    expectLine(report[3], 3, 'failed', 'unknown_user', /No user has the email nobody\./);
    expectLine(report[4], 4, 'failed', 'duplicate_row', /Row 1 has the same user_id and content_item_id/);
    expectLine(report[5], 5, 'failed', 'validation_error', /^due_date: Must be a date in the form YYYY-MM-DD\.$/);
    expectLine(report[6], 6, 'existing');
    expectLine(report[7], 7, 'failed', 'validation_error', /^content_item_id: Must be a UUID\.$/);
    expectLine(report[8], 8, 'failed', 'not_found');
    expectLine(report[9], 9, 'failed', 'validation_error', /not both/);
    assert.equal(report[6]![2], already.body.public_id);

    const assigned = (await server.api.get(`/api/v2/assignments/?content_item=${article.public_id}`)).body;
    assert.equal(assigned.meta.total_count, 2);
    const annAssignment = assigned.data.find((a: any) => a.user.public_id === ann.public_id);
    assert.equal(annAssignment.due_date, '2027-01-31');
    assert.equal(annAssignment.public_id, report[1]![2]);

    const rerun = await importer(server, ['assignments', path, '--json']);
    assert.deepEqual(JSON.parse(rerun.stdout), { total: 9, created: 0, existing: 3, updated: 0, failed: 6, report: `${path}.report.csv` });
    assert.equal((await server.api.get(`/api/v2/assignments/?content_item=${article.public_id}`)).body.meta.total_count, 2);
  });

  it('imports enrollments, with wait lists, full methods and bad values per row', async () => {
    const event = (
      await server.api.post('/api/v2/events/', {
        name: 'Workshop',
        is_local: true,
        is_online: true,
        enrollment_limit: 1,
        timeslots: [{ starts_at: '2027-06-01T09:00:00Z', duration: 'PT2H' }],
      })
    ).body;
    assert.ok(event.public_id, JSON.stringify(event));
    const people = [];
    for (const name of ['Cy', 'Di', 'Ed', 'Flo'])
      people.push((await server.api.post('/api/v2/users/', { email: uniqueEmail(name), name })).body);
    const [cy, di, ed, flo] = people;
    const path = csvFile(
      [
        'user_email,event_id,attendance_method,accept_waitlist',
        `${cy.email},${event.public_id},in_person,`,
        `${di.email},${event.public_id},online,TRUE`,
        `${ed.email},${event.public_id},by_post,`,
        `${cy.email},${event.public_id},online,`,
        `${ed.email},${event.public_id},in_person,false`,
        `${flo.email},${event.public_id},in_person,true`,
        `${flo.email},${event.public_id},online,maybe`,
      ].join('\r\n'),
    );
    const result = await importer(server, ['enrollments', path]);
    assert.equal(result.code, 1, result.stderr);
    const report = readReport(`${path}.report.csv`);
    assert.equal(report.length, 8);
    expectLine(report[1], 1, 'created');
    expectLine(report[2], 2, 'created');
    expectLine(report[3], 3, 'failed', 'validation_error', /^attendance_method: Must be one of: in_person, online\.$/);
    expectLine(report[4], 4, 'failed', 'duplicate_row', /Row 1 has the same user_id and event_id/);
    expectLine(report[5], 5, 'failed', 'full');
    expectLine(report[6], 6, 'created');
    expectLine(report[7], 7, 'failed', 'validation_error', /^accept_waitlist: Must be true or false\.$/);
    const listed = (await server.api.get(`/api/v2/enrollments/?event=${event.public_id}`)).body;
    assert.equal(listed.meta.total_count, 3);
    const statusOf = (user: any) => listed.data.find((e: any) => e.user.public_id === user.public_id)?.status;
    assert.deepEqual([statusOf(cy), statusOf(di), statusOf(ed), statusOf(flo)], ['enrolled', 'enrolled', undefined, 'waitlisted']);
  });

  it('checks a dry run without writing anything', async () => {
    const email = uniqueEmail('dry');
    const path = csvFile(`email,name\n${email},Dry\nbad,Bad\n`);
    const result = await importer(server, ['users', path, '--dry-run']);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /^Checked 2 rows \(dry run, nothing written\): 1 valid, 1 failed\./);
    const report = readReport(`${path}.report.csv`);
    expectLine(report[1], 1, 'valid');
    expectLine(report[2], 2, 'failed', 'validation_error');
    assert.equal((await server.api.get(`/api/v2/users/?email=${encodeURIComponent(email)}`)).body.meta.total_count, 0);
  });

  it('stops on a refused token, reporting every row not_sent', async () => {
    const path = csvFile(`email,name\n${uniqueEmail('x')},X\n${uniqueEmail('y')},Y\n`);
    const result = await runCli(['import', 'users', path, '--url', server.url, '--token', `lpat_${'x'.repeat(43)}`]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /refused the token .*401 invalid_token/);
    const report = readReport(`${path}.report.csv`);
    expectLine(report[1], 1, 'failed', 'not_sent', /refused the token/);
    expectLine(report[2], 2, 'failed', 'not_sent');
  });
});

/**
 * A proxy to `target` that forwards every request but troubles the first bulk submit: `lose`
 * forwards it and drops the connection once the server has answered (the job exists, the importer
 * never hears of it); `rate-limit` answers it with a 429 itself, as a busy token would get.
 */
async function flakyProxy(target: string, trouble: 'lose' | 'rate-limit'): Promise<{ url: string; troubled: () => number }> {
  let troubled = 0;
  const proxy = createServer((incoming, outgoing) => {
    const first = incoming.method === 'POST' && incoming.url!.includes('/bulk') && troubled === 0;
    if (first && trouble === 'rate-limit') {
      troubled++;
      incoming.resume();
      outgoing.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      outgoing.end(JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests.', request_id: 'proxy' } }));
      return;
    }
    const forward = httpRequest(new URL(incoming.url!, target), { method: incoming.method, headers: incoming.headers }, (answer) => {
      if (first) {
        troubled++;
        answer.resume();
        answer.once('end', () => outgoing.socket?.destroy());
        return;
      }
      outgoing.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(outgoing);
    });
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  after(() => proxy.close());
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, troubled: () => troubled };
}

describe('lectern import, over a poor connection', () => {
  it('resubmits a job whose answer was lost without creating anything twice', async () => {
    const server = await startServer({ args: ['--rate-limit', '100000'] });
    try {
      const proxy = await flakyProxy(server.url, 'lose');
      const tag = `lost${process.pid}x${Date.now()}`;
      const path = csvFile(`email,name\n${Array.from({ length: 30 }, (_, i) => `${tag}.${i}@example.com,P${i}`).join('\n')}\n`);
      const result = await runCli(['import', 'users', path, '--url', proxy.url, '--token', server.adminToken, '--json']);
      assert.equal(proxy.troubled(), 1, 'the first submit lost its answer');
      assert.equal(result.code, 0, result.stderr);
      const summary = JSON.parse(result.stdout);
      assert.equal(summary.failed, 0);
      // the lost job created them; the resubmitted one found them: existing, not failed, not twice
      assert.equal(summary.existing, 30);
      assert.equal((await server.api.get(`/api/v2/users/?search=${tag}&page_size=1`)).body.meta.total_count, 30);
      const report = readReport(`${path}.report.csv`).slice(1);
      for (const line of report) {
        const user = (await server.api.get(`/api/v2/users/${line[2]}/`)).body;
        assert.equal(user.email, `${tag}.${Number(line[0]) - 1}@example.com`);
      }
    } finally {
      await server.stop();
    }
  });

  it('waits out a 429 instead of failing rows', async () => {
    const server = await startServer({ args: ['--rate-limit', '100000'] });
    try {
      const proxy = await flakyProxy(server.url, 'rate-limit');
      const path = csvFile(`email,name\n${uniqueEmail('slow')},Slow\n${uniqueEmail('slower')},Slower\n`);
      const result = await runCli(['import', 'users', path, '--url', proxy.url, '--token', server.adminToken, '--json']);
      assert.equal(proxy.troubled(), 1, 'the first submit was rate limited');
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout), {
        total: 2,
        created: 2,
        existing: 0,
        updated: 0,
        failed: 0,
        report: `${path}.report.csv`,
      });
    } finally {
      await server.stop();
    }
  });
});

describe('lectern import, interrupted', () => {
  const server = useServer({ args: ['--rate-limit', '100000', '--job-chunk-size', '10', '--job-pause-ms', '25'] });
  const people: { email: string; public_id: string }[] = [];
  const articles: string[] = [];
  before(async () => {
    // slow jobs, so an interruption lands while jobs are queued
    for (let i = 0; i < 30; i++) people.push((await server.api.post('/api/v2/users/', { email: uniqueEmail('kill'), name: `K${i}` })).body);
    for (let i = 0; i < 80; i++) articles.push((await server.api.post('/api/v2/articles/', { name: `Article ${i}` })).body.public_id);
  });

  /** 1 200 assignment rows: 30 users × 40 articles, from `offset`. */
  const assignmentFile = (offset: number) =>
    csvFile(
      `user_email,content_item_id\n${articles
        .slice(offset, offset + 40)
        .flatMap((article) => people.map((p) => `${p.email},${article}`))
        .join('\n')}\n`,
    );
  const assignedCount = async (offset: number) => {
    let total = 0;
    for (const article of articles.slice(offset, offset + 40)) {
      total += (await server.api.get(`/api/v2/assignments/?content_item=${article}&page_size=1`)).body.meta.total_count;
    }
    return total;
  };
  const startImport = (path: string) =>
    spawn(process.execPath, [lecternBin, 'import', 'assignments', path, '--url', server.url, '--token', server.adminToken, '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const untilSomeAssigned = async (offset: number) => {
    const first = articles[offset]!;
    while ((await server.api.get(`/api/v2/assignments/?content_item=${first}&page_size=1`)).body.meta.total_count === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('completes on a re-run after SIGKILL, with no duplicate', async () => {
    const path = assignmentFile(0);
    const child = startImport(path);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await untilSomeAssigned(0);
    child.kill('SIGKILL');
    await exited;

    const rerun = await runCli(['import', 'assignments', path, '--url', server.url, '--token', server.adminToken, '--json']);
    assert.equal(rerun.code, 0, rerun.stderr);
    const summary = JSON.parse(rerun.stdout);
    assert.equal(summary.total, 1200);
    assert.equal(summary.failed, 0);
    assert.equal(summary.created + summary.existing, 1200);
    assert.ok(summary.existing > 0, 'the killed run had assigned some');
    assert.equal(await assignedCount(0), 1200, 'one assignment per row, none twice');
    const report = readReport(`${path}.report.csv`).slice(1);
    assert.equal(new Set(report.map((line) => line[2])).size, 1200);
  });

  it('finishes the report on SIGINT: every row once, unsent rows not_sent', async () => {
    const path = assignmentFile(40);
    const child = startImport(path);
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await untilSomeAssigned(40);
    child.kill('SIGINT');
    const code = await exited;

    const report = readReport(`${path}.report.csv`).slice(1);
    assert.deepEqual(
      report.map((line) => line[0]),
      Array.from({ length: 1200 }, (_, i) => String(i + 1)),
    );
    const created = report.filter((line) => line[1] === 'created').length;
    const notSent = report.filter((line) => line[3] === 'not_sent').length;
    assert.equal(created + notSent, 1200, 'a row is either created or not sent');
    assert.equal(code, notSent > 0 ? 1 : 0);
    assert.equal(JSON.parse(stdout).created, created);
    // jobs already sent were waited for, so the server holds exactly the rows reported created
    assert.equal(await assignedCount(40), created);
  });
});
