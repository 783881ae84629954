import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { lastSequence, outboxAfter } from '../helpers/outbox.ts';
import { expectError, uniqueEmail, userWithToken, useServer, type ApiClient, type ApiResponse } from '../helpers/server.ts';

const importKeys = [
  'id',
  'kind',
  'status',
  'dry_run',
  'update',
  'filename',
  'total_rows',
  'processed',
  'created',
  'existing',
  'updated',
  'valid',
  'failed',
  'error',
  'created_by',
  'created_at',
  'started_at',
  'completed_at',
];

/** Uploads `csv` as an import; `query` without the leading `?`. */
const upload = (api: ApiClient, query: string, csv: string | Buffer, headers: Record<string, string> = {}): Promise<ApiResponse> =>
  api.request('POST', `/api/v2/imports/?${query}`, { raw: csv, headers: { 'content-type': 'text/csv', ...headers } });

async function finished(api: ApiClient, id: string, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await api.get(`/api/v2/imports/${id}/`);
    assert.equal(response.status, 200, response.text);
    if (['completed', 'failed', 'cancelled'].includes(response.body.status)) return response.body;
    if (Date.now() > deadline) throw new Error(`import still ${response.body.status}: ${response.text}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Uploads, expects the 202, waits for the end; the finished import. */
async function imported(api: ApiClient, query: string, csv: string | Buffer): Promise<any> {
  const response = await upload(api, query, csv);
  assert.equal(response.status, 202, response.text);
  const done = await finished(api, response.body.id);
  assert.notEqual(done.status, 'failed', JSON.stringify(done));
  return done;
}

/** The report's rows (header first), read as CSV. */
async function report(api: ApiClient, id: string, token = api.token): Promise<string[][]> {
  const response = await fetch(`${api.baseUrl}/api/v2/imports/${id}/report/`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
  return parse(await response.text(), { relax_column_count: true });
}

describe('imports', () => {
  // a 1 MiB limit, so the 413 needs no large file
  const server = useServer({ args: ['--max-import-mb', '1'] });
  let api: ApiClient;
  before(async () => {
    api = server.api;
  });

  describe('refusals, before anything is stored', () => {
    it('refuses another content type, a missing or unknown kind, an empty file, a bad header and a file that is not CSV', async () => {
      const before = (await api.get('/api/v2/imports/')).body.meta.total_count;
      expectError(
        await api.request('POST', '/api/v2/imports/?kind=users', { raw: 'email,name\n', headers: { 'content-type': 'application/json' } }),
        415,
        'unsupported_media_type',
      );
      expectError(await upload(api, '', 'email,name\n'), 400, 'bad_request');
      expectError(await upload(api, 'kind=groups', 'email,name\n'), 400, 'bad_request');
      const problems: Array<[string, RegExp]> = [
        ['', /empty/],
        ['\r\n\r\n', /empty/],
        ['email,name,age\na@x.io,A,3\n', /unknown column 'age'/],
        ['email\na@x.io\n', /missing required column 'name'/],
        ['email,name,Email\n', /'email' appears twice/],
        ['email,name,\n', /column 3 of the header has no name/],
        ['email,name\na@x.io,"Ann\n', /not valid CSV.*Quote Not Closed/],
      ];
      for (const [csv, message] of problems) {
        const response = await upload(api, 'kind=users', csv);
        expectError(response, 422, 'validation_error');
        assert.match(response.body.error.non_field_errors.join(' '), message, csv);
      }
      // a broken quote far into the file: the rows stored before it are forgotten again
      const long = `email,name\n${Array.from({ length: 5000 }, (_, i) => `${uniqueEmail('late')},Row ${i}`).join('\n')}\nx@x.io,"broken\n`;
      expectError(await upload(api, 'kind=users', long), 422, 'validation_error');
      assert.equal((await api.get('/api/v2/imports/')).body.meta.total_count, before, 'no refused upload is listed');
      assert.equal((await api.get(`/api/v2/users/?search=late`)).body.meta.total_count, 0, 'nothing was imported');
    });

    it('refuses a file over the size limit with 413', async () => {
      const big = `email,name\n${'x'.repeat(1024)},n\n`.repeat(1100);
      expectError(await upload(api, 'kind=users', big), 413, 'payload_too_large');
    });
  });

  describe('a users import', () => {
    it('creates, fails and reports each row in order, keeping the bytes that are not UTF-8 out of the database', async () => {
      const fresh = uniqueEmail('imp');
      const formula = uniqueEmail('formula');
      const latin1 = Buffer.from(`${uniqueEmail('latin')},Ren\xe9\n`, 'latin1');
      const csv = Buffer.concat([
        Buffer.from(
          `email,name,role\n${fresh},Fresh,user\nnot-an-email,Bad,user\n${fresh.toUpperCase()},Again,user\n${formula},"=HYPERLINK(""x"")",user\n`,
        ),
        latin1,
        Buffer.from(`${uniqueEmail('few')},Few\n`),
      ]);
      const response = await upload(api, 'kind=users', csv, { 'content-disposition': 'attachment; filename="people.csv"' });
      assert.equal(response.status, 202, response.text);
      assert.deepEqual(Object.keys(response.body), importKeys);
      assert.equal(response.body.filename, 'people.csv');
      assert.equal(response.body.total_rows, 6);
      assert.ok(['pending', 'running', 'completed'].includes(response.body.status));
      const done = await finished(api, response.body.id);
      assert.equal(done.status, 'completed');
      assert.deepEqual([done.processed, done.created, done.existing, done.failed], [6, 2, 0, 4]);
      assert.equal(done.created_by.email, 'admin@example.com');
      assert.ok(done.started_at && done.completed_at);

      const rows = await report(api, done.id);
      assert.deepEqual(rows[0], ['row', 'status', 'public_id', 'error_code', 'error_message', 'email', 'name', 'role']);
      assert.deepEqual(
        rows.slice(1).map((row) => [row[0], row[1], row[3]]),
        [
          ['1', 'created', ''],
          ['2', 'failed', 'validation_error'],
          ['3', 'failed', 'duplicate_row'],
          ['4', 'created', ''],
          ['5', 'failed', 'validation_error'],
          ['6', 'failed', 'column_count'],
        ],
      );
      assert.match(rows[3]![4]!, /Row 1 has the same email/);
      assert.match(rows[5]![4]!, /name: not valid UTF-8/);
      assert.equal(rows[4]![6], `'=HYPERLINK("x")`, 'a formula is written with a leading quote');
      const stored = (await api.get(`/api/v2/users/?email=${encodeURIComponent(formula)}`)).body.data[0];
      assert.equal(stored.name, '=HYPERLINK("x")', 'the stored name is unchanged');
      assert.equal(rows[1]![2], (await api.get(`/api/v2/users/?email=${encodeURIComponent(fresh)}`)).body.data[0].public_id);
      assert.equal((await api.get(`/api/v2/users/?search=latin`)).body.meta.total_count, 0, 'the Latin-1 row was not stored');
    });

    it('reports existing on a second upload, updates with update=true, and checks without writing in a dry run', async () => {
      const a = uniqueEmail('rerun');
      const b = uniqueEmail('rerun');
      const csv = `email,name,employee_id\n${a},Ann,E1\n${b},Bob,\n`;
      const first = await imported(api, 'kind=users', csv);
      assert.deepEqual([first.created, first.existing], [2, 0]);
      const again = await imported(api, 'kind=users', csv);
      assert.deepEqual([again.created, again.existing, again.failed], [0, 2, 0]);
      assert.deepEqual(
        (await report(api, again.id)).slice(1).map((row) => row[1]),
        ['existing', 'existing'],
      );

      const changed = await imported(api, 'kind=users&update=true', `email,name,employee_id\n${a},Ann Smith,E1\n${b},Bob,\n`);
      assert.deepEqual([changed.update, changed.updated, changed.existing], [true, 1, 1]);
      assert.equal((await api.get(`/api/v2/users/?email=${encodeURIComponent(a)}`)).body.data[0].name, 'Ann Smith');

      const fresh = uniqueEmail('dry');
      const dry = await imported(api, 'kind=users&dry_run=true', `email,name\n${fresh},Dry\nbad,Bad\n`);
      assert.deepEqual([dry.dry_run, dry.valid, dry.failed, dry.created], [true, 1, 1, 0]);
      assert.deepEqual(
        (await report(api, dry.id)).slice(1).map((row) => row[1]),
        ['valid', 'failed'],
      );
      assert.equal(
        (await api.get(`/api/v2/users/?email=${encodeURIComponent(fresh)}`)).body.meta.total_count,
        0,
        'a dry run writes nothing',
      );
    });

    it('cancels: the rows not yet processed fail as cancelled', async () => {
      const csv = `email,name\n${Array.from({ length: 20_000 }, (_, i) => `${uniqueEmail('cancel')},C ${i}`).join('\n')}\n`;
      const response = await upload(api, 'kind=users', csv);
      assert.equal(response.status, 202, response.text);
      const cancelled = await api.post(`/api/v2/imports/${response.body.id}/cancel/`);
      assert.equal(cancelled.status, 200, cancelled.text);
      assert.equal(cancelled.body.status, 'cancelled');
      const done = await finished(api, response.body.id);
      assert.equal(done.status, 'cancelled');
      assert.equal(done.processed, 20_000);
      assert.ok(done.failed > 0 && done.created + done.failed === 20_000, JSON.stringify(done));
      const rows = await report(api, done.id);
      assert.equal(rows.length, 20_001);
      assert.deepEqual(rows.at(-1)!.slice(1, 4), ['failed', '', 'cancelled']);
      const again = await api.post(`/api/v2/imports/${done.id}/cancel/`);
      assert.equal(again.body.status, 'cancelled', 'cancelling a finished import changes nothing');
    });
  });

  describe('assignments and enrollments', () => {
    it('imports assignments by email and by id, firing assignment.created, and finds them existing on a re-run', async () => {
      const content = (await api.post('/api/v2/articles/', { name: 'Imported article' })).body;
      const learner = (await api.post('/api/v2/users/', { email: uniqueEmail('asg'), name: 'Learner' })).body;
      const other = (await api.post('/api/v2/users/', { email: uniqueEmail('asg'), name: 'Other' })).body;
      const from = await lastSequence(server.dbFile);
      const csv = `user_email,user_id,content_item_id,due_date\n${learner.email.toUpperCase()},,${content.public_id},2030-01-31\n,${other.public_id},${content.public_id},\nnobody@x.io,,${content.public_id},\n${learner.email},,${content.public_id},\n`;
      const done = await imported(api, 'kind=assignments', csv);
      assert.deepEqual([done.created, done.failed], [2, 2]);
      const rows = await report(api, done.id);
      assert.deepEqual(
        rows.slice(1).map((row) => [row[1], row[3]]),
        [
          ['created', ''],
          ['created', ''],
          ['failed', 'unknown_user'],
          ['failed', 'duplicate_row'],
        ],
      );
      const events = (await outboxAfter(server.dbFile, from)).filter((event) => event.type === 'assignment.created');
      assert.equal(events.length, 2);
      assert.deepEqual(events.map((event) => event.payload.data.object.public_id).sort(), [rows[1]![2], rows[2]![2]].sort());
      const again = await imported(api, 'kind=assignments', csv);
      assert.deepEqual([again.created, again.existing], [0, 2]);
    });

    it('imports enrollments', async () => {
      const event = (
        await api.post('/api/v2/events/', {
          name: 'Imported workshop',
          is_local: true,
          timeslots: [{ starts_at: '2030-06-01T09:00:00Z', duration: 'PT2H' }],
        })
      ).body;
      const learner = (await api.post('/api/v2/users/', { email: uniqueEmail('enr'), name: 'Learner' })).body;
      const done = await imported(
        api,
        'kind=enrollments',
        `user_id,event_id,attendance_method,accept_waitlist\n${learner.public_id},${event.public_id},in_person,TRUE\n${learner.public_id},${event.public_id},sideways,\n`,
      );
      assert.deepEqual([done.created, done.failed], [1, 1]);
      const enrollments = (await api.get(`/api/v2/enrollments/?event=${event.public_id}`)).body.data;
      assert.ok(enrollments.length >= 1);
    });
  });

  describe('rights', () => {
    it('needs the kind’s bulk scope and role; organizers see their own imports, admins every one', async () => {
      const learner = await userWithToken(server, 'user');
      const organizer = await userWithToken(server, 'organizer');
      expectError(await upload(learner.api, 'kind=users', 'email,name\n'), 403, 'forbidden');
      expectError(await upload(organizer.api, 'kind=users', 'email,name\n'), 403, 'forbidden');
      const content = (await api.post('/api/v2/articles/', { name: 'Organizer article' })).body;
      const mine = await imported(
        organizer.api,
        'kind=assignments',
        `user_id,content_item_id\n${learner.user.public_id},${content.public_id}\n`,
      );
      assert.equal(mine.created, 1);
      const admins = await imported(api, 'kind=users&dry_run=true', `email,name\n${uniqueEmail('adm')},A\n`);

      const organizerList = (await organizer.api.get('/api/v2/imports/')).body;
      assert.deepEqual(
        organizerList.data.map((item: any) => item.id),
        [mine.id],
      );
      assert.equal((await organizer.api.get(`/api/v2/imports/${admins.id}/`)).status, 404);
      assert.equal((await organizer.api.post(`/api/v2/imports/${admins.id}/cancel/`)).status, 404);
      const adminList = (await api.get('/api/v2/imports/?kind=assignments')).body.data.map((item: any) => item.id);
      assert.ok(adminList.includes(mine.id));
      assert.ok(!adminList.includes(admins.id), 'the kind filter applies');
      const newest = (await api.get('/api/v2/imports/')).body.data;
      assert.ok(newest[0].created_at >= newest.at(-1).created_at, 'newest first');
      assert.equal((await learner.api.get('/api/v2/imports/')).body.meta.total_count, 0);
    });
  });
});

describe('what an import tells a learner, and what its dry run checks', () => {
  const server = useServer();

  /** The report's rows as [status, error_code, error_message with the row's email blanked]. */
  async function outcomes(api: ApiClient, id: string): Promise<string[][]> {
    return (await report(api, id)).slice(1).map((row) => [row[1]!, row[3]!, row[4]!.replace(row[5]!, '<email>')]);
  }

  it('gives a learner one answer for a registered and an unregistered email, and a dry run the real run’s answers', async () => {
    const learner = await userWithToken(server, 'user');
    const registered = (await server.api.post('/api/v2/users/', { email: uniqueEmail('registered'), name: 'Registered' })).body;
    const visible = (await server.api.post('/api/v2/articles/', { name: 'Visible article', is_self_assignable: true })).body;
    const hidden = (await server.api.post('/api/v2/articles/', { name: 'Hidden article', is_hidden: true, is_self_assignable: true })).body;
    assert.equal(hidden.is_hidden, true);
    const csv = [
      'user_email,content_item_id',
      `${registered.email},${visible.public_id}`,
      `${uniqueEmail('unregistered')},${visible.public_id}`,
      `${learner.user.email},${hidden.public_id}`,
      `${learner.user.email},no-such-item`,
      `${learner.user.email},${visible.public_id}`,
      '',
    ].join('\n');
    const dry = await imported(learner.api, 'kind=assignments&dry_run=true', csv);
    const dryRows = await outcomes(learner.api, dry.id);
    const [other, unknown] = dryRows;
    assert.equal(other![0], 'failed');
    assert.deepEqual(other, unknown, 'a registered email and an unknown one read the same');
    assert.equal(dryRows[4]![0], 'valid');
    assert.deepEqual([dry.valid, dry.failed], [1, 4]);

    const real = await imported(learner.api, 'kind=assignments', csv);
    const realRows = await outcomes(learner.api, real.id);
    assert.deepEqual(
      realRows.map((row) => (row[0] === 'created' ? ['valid', '', ''] : row)),
      dryRows,
      'the dry run failed exactly the rows the real run failed, for the same reasons',
    );
    assert.deepEqual([real.created, real.failed], [1, 4]);
  });

  it('fails a row naming a content item that does not exist in an admin’s dry run, as the real run does, writing nothing', async () => {
    const learner = (await server.api.post('/api/v2/users/', { email: uniqueEmail('dry'), name: 'Dry' })).body;
    const content = (await server.api.post('/api/v2/articles/', { name: 'Dry article' })).body;
    const csv = `user_id,content_item_id\n${learner.public_id},no-such-item\n${learner.public_id},${content.public_id}\n`;
    const dry = await imported(server.api, 'kind=assignments&dry_run=true', csv);
    const real = await imported(server.api, 'kind=assignments', csv);
    const [dryRows, realRows] = [await report(server.api, dry.id), await report(server.api, real.id)];
    assert.deepEqual([dry.valid, dry.failed], [1, 1]);
    assert.equal(dryRows[1]![1], 'failed');
    assert.deepEqual(dryRows[1]!.slice(3, 5), realRows[1]!.slice(3, 5));
    assert.equal(dryRows[2]![1], 'valid');
    assert.equal(dryRows[2]![2], '', 'a dry run names no resource: it wrote none');
    const assigned = (await server.api.get(`/api/v2/assignments/?user=${learner.public_id}`)).body.data;
    assert.equal(assigned.length, 1, 'only the real run wrote');
  });
});

describe('an import with a row over the record limit', () => {
  const server = useServer();

  it('fails that row as row_too_long, without its cells, and imports the rows after it', async () => {
    const api = server.api;
    const [before, after] = [uniqueEmail('long'), uniqueEmail('long')];
    const huge = 'n'.repeat(1024 * 1024 + 10);
    const csv = `email,name\r\n${before},Before\r\n${uniqueEmail('long')},"${huge}"\r\n${after},After\r\n`;
    const done = await imported(api, 'kind=users', csv);
    assert.deepEqual([done.total_rows, done.created, done.failed], [3, 2, 1]);
    const rows = await report(api, done.id);
    assert.deepEqual(
      rows.slice(1).map((row) => [row[1], row[3], row.slice(5).join('')]),
      [
        ['created', '', `${before}Before`],
        ['failed', 'row_too_long', ''],
        ['created', '', `${after}After`],
      ],
    );
    assert.match(rows[2]![4]!, /longer than the limit of 1048576 bytes/);
    expectError(await upload(api, 'kind=users', `${'h'.repeat(1024 * 1024 + 1)}\n`), 422, 'validation_error');
  });

  it('fails rows wider than the kind’s columns and a small margin unread, a learner’s dry run included, and serves the report', async () => {
    const learner = await userWithToken(server, 'user');
    const content = (await server.api.post('/api/v2/articles/', { name: 'Wide article', is_self_assignable: true })).body;
    // 400 000 fields in 800 KB, under the record limit: each such row once cost some 55 MB
    const wide = `${learner.user.email},${content.public_id}${','.repeat(400_000)}`;
    // within the margin the row is read, and its extra cells are the row rules' business
    const margin = `${learner.user.email},${content.public_id}${','.repeat(8)}`;
    const csv = `user_email,content_item_id\n${wide}\n${wide}\n${margin}\n${learner.user.email},${content.public_id}${','.repeat(12)}x\n`;
    const done = await imported(learner.api, 'kind=assignments&dry_run=true', csv);
    assert.equal(done.total_rows, 4);
    const rows = await report(learner.api, done.id);
    assert.deepEqual(
      rows.slice(1).map((row) => row[3] === 'row_too_long'),
      [true, true, false, true],
    );
    assert.match(rows[1]![4]!, /more than 8 fields beyond the kind's columns/);
    assert.ok(
      rows.every((row) => row.length <= 2 + 8 + 5),
      'no wide row was kept',
    );
    // a header that wide is refused before anything is stored
    expectError(await upload(learner.api, 'kind=assignments', `user_email,content_item_id${','.repeat(20)}\n`), 422, 'validation_error');
  });
});
