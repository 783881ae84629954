/**
 * `lectern import` end to end: the built CLI against a real server, which it sends each file to
 * once (POST /api/v2/imports/), checking the report it writes and the server's state.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { runCli, tempDir, uniqueEmail, type TestServer, useServer } from '../helpers/server.ts';

const dir = tempDir();
let files = 0;
const csvFile = (content: string | Buffer) => {
  const path = join(dir, `input-${files++}.csv`);
  writeFileSync(path, content);
  return path;
};
const readReport = (path: string): string[][] => parse(readFileSync(path), { relax_column_count: true });
const HEADER = ['row', 'status', 'public_id', 'error_code', 'error_message'];

function importer(server: TestServer, args: string[]) {
  return runCli(['import', ...args, '--url', server.url, '--token', server.adminToken, '--no-progress']);
}

const userCount = async (server: TestServer) => (await server.api.get('/api/v2/users/?page_size=1')).body.meta.total_count as number;

describe('lectern import', () => {
  const server = useServer();

  it('refuses a bad header, broken quoting, an empty file or a missing flag with exit 2, importing nothing', async () => {
    const before = await userCount(server);
    const cases: [string, string, RegExp][] = [
      ['users', 'email,name,phone\r\na@example.com,A,1\r\n', /unknown column 'phone'/],
      ['users', 'Email\r\na@example.com\r\n', /missing required column 'name'/],
      ['assignments', 'content_item_id,due_date\r\n', /'user_email' or 'user_id'/],
      ['enrollments', 'user_id,event_id,attendance_method,User_ID\r\n', /'user_id' appears twice/],
      ['users', 'email,name\r\n"a@example.com,Ann\r\nb@example.com,Bob\r\n', /not valid CSV.*Quote Not Closed/],
      ['users', '', /empty/],
    ];
    for (const [kind, content, message] of cases) {
      const path = csvFile(content);
      const result = await importer(server, [kind, path]);
      assert.equal(result.code, 2, `${content}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.match(result.stderr, /nothing was imported\n$/);
      assert.equal(existsSync(`${path}.report.csv`), false, 'no report for a refused file');
    }
    const noUrl = await runCli(['import', 'assignments', csvFile('user_id,content_item_id\n'), '--token', 'x']);
    assert.equal(noUrl.code, 2);
    assert.match(noUrl.stderr, /--url and --token are required/);
    assert.equal(await userCount(server), before);
  });

  it('imports users, prints the summary, re-runs to existing without overwriting the report, and updates with --update', async () => {
    const a = uniqueEmail('cli');
    const b = uniqueEmail('cli');
    const path = csvFile(`email,name,role\n${a},Ann,user\n${b},"=SUM(1,2)",organizer\nbad,Bad,user\n`);
    const first = await importer(server, ['users', path, '--json']);
    assert.equal(first.code, 1, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout), { total: 3, created: 2, existing: 0, updated: 0, failed: 1, report: `${path}.report.csv` });
    const rows = readReport(`${path}.report.csv`);
    assert.deepEqual(rows[0], [...HEADER, 'email', 'name', 'role']);
    assert.deepEqual(
      rows.slice(1).map((row) => [row[0], row[1], row[3]]),
      [
        ['1', 'created', ''],
        ['2', 'created', ''],
        ['3', 'failed', 'validation_error'],
      ],
    );
    assert.equal(rows[2]![6], "'=SUM(1,2)", 'the report quotes a formula');

    const again = await importer(server, ['users', path]);
    assert.equal(again.code, 1);
    assert.match(again.stdout, /^Imported 3 rows: 0 created, 2 existing, 0 updated, 1 failed\. Report: .*\.report-1\.csv\n$/);
    assert.equal(readReport(`${path}.report.csv`)[1]![1], 'created', 'the first report is kept');
    assert.equal(readReport(`${path}.report-1.csv`)[1]![1], 'existing');

    const forced = await importer(server, [
      'users',
      csvFile(`email,name\n${a},Ann Lee\n`),
      '--update',
      '--report',
      `${path}.report.csv`,
      '--force',
      '--json',
    ]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(JSON.parse(forced.stdout).updated, 1);
    assert.equal(readReport(`${path}.report.csv`)[1]![1], 'updated', '--force overwrote the report');
    assert.equal((await server.api.get(`/api/v2/users/?email=${encodeURIComponent(a)}`)).body.data[0].name, 'Ann Lee');
  });

  it('imports assignments by email through the server and exits 0 when every row succeeds', async () => {
    const content = (await server.api.post('/api/v2/articles/', { name: 'CLI article' })).body;
    const learner = (await server.api.post('/api/v2/users/', { email: uniqueEmail('cli-asg'), name: 'L' })).body;
    const path = csvFile(`user_email,content_item_id\n${learner.email},${content.public_id}\n`);
    const result = await importer(server, ['assignments', path]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Imported 1 rows: 1 created/);
    const listed = (await server.api.get(`/api/v2/assignments/?user=${learner.public_id}`)).body;
    assert.equal(listed.meta.total_count, 1);
    assert.equal(readReport(`${path}.report.csv`)[1]![2], listed.data[0].public_id);
  });

  it('checks a users file offline with --dry-run and no --url, and on the server otherwise', async () => {
    const fresh = uniqueEmail('dry');
    const path = csvFile(
      Buffer.concat([
        Buffer.from(`email,name\n${fresh},Dry\n${fresh},Twice\nbad,Bad\n`),
        Buffer.from('x@x.io,Ren\xe9\n', 'latin1'),
        Buffer.from(`long@x.io,${'L'.repeat(1024 * 1024 + 1)}\n`),
      ]),
    );
    const offline = await runCli(['import', 'users', path, '--dry-run', '--json']);
    assert.equal(offline.code, 1, offline.stderr);
    assert.deepEqual(JSON.parse(offline.stdout), {
      total: 5,
      created: 0,
      existing: 0,
      updated: 0,
      failed: 4,
      valid: 1,
      report: `${path}.report.csv`,
    });
    assert.deepEqual(
      readReport(`${path}.report.csv`)
        .slice(1)
        .map((row) => [row[1], row[3]]),
      [
        ['valid', ''],
        ['failed', 'duplicate_row'],
        ['failed', 'validation_error'],
        ['failed', 'validation_error'],
        ['failed', 'row_too_long'],
      ],
    );
    assert.match(readReport(`${path}.report.csv`)[4]![4]!, /not valid UTF-8/);
    const online = await importer(server, ['users', path, '--dry-run', '--json']);
    assert.equal(JSON.parse(online.stdout).valid, 1);
    assert.equal((await server.api.get(`/api/v2/users/?email=${encodeURIComponent(fresh)}`)).body.meta.total_count, 0);
  });

  it('refuses an unreadable header offline as the server does: exit 2, the reason, no report', async () => {
    const cases: [Buffer, RegExp][] = [
      [
        Buffer.concat([Buffer.from('email,n'), Buffer.from('\xe4', 'latin1'), Buffer.from('me\na@x.io,A\n')]),
        /header row is not valid UTF-8/,
      ],
      [Buffer.from(`email,name,${'x'.repeat(1024 * 1024)}\na@x.io,A,1\n`), /header row is longer than the limit of 1048576 bytes/],
    ];
    for (const [content, message] of cases) {
      const path = csvFile(content);
      const result = await runCli(['import', 'users', path, '--dry-run']);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.equal(existsSync(`${path}.report.csv`), false, 'no report for a refused file');
    }
  });
});
