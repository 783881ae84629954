/**
 * `lectern migrate-data --from FILE --to URL`: a SQLite database served before is served the same
 * from PostgreSQL afterwards; a second run, a target that is not empty or a missing file is
 * refused without touching anything; the URL's password is never printed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { join } from 'node:path';
import { parseAuditQuery } from '@lectern/core';
import { openPostgresStorage, openSqliteStorage } from '@lectern/storage';
import { queryDatabase } from '../helpers/database.ts';
import { freshPostgresDatabase, postgresServerUrl } from '../helpers/postgres.ts';
import { runCli, startServer, tempDir, uniqueEmail, userWithToken, type ApiClient } from '../helpers/server.ts';

const SECRET = 'pw-not-in-the-output-9';
const LISTS = [
  '/api/v2/users/?ordering=email&page_size=100',
  '/api/v2/groups/?page_size=100',
  '/api/v2/content-items/?page_size=100',
  '/api/v2/assignments/?page_size=100',
  '/api/v2/saved-reports/?page_size=100',
  '/api/v2/api-tokens/?page_size=100',
  '/public_api/v2/webhooks/?page_size=100',
];

/** Every list's body, as a client sees the database. */
async function snapshot(api: ApiClient): Promise<Record<string, unknown>> {
  const bodies: Record<string, unknown> = {};
  for (const path of LISTS) {
    const response = await api.get(path);
    assert.equal(response.status, 200, `${path}: ${response.text}`);
    // reading the lists uses the admin token, which records its own last use as it goes
    if (path.startsWith('/api/v2/api-tokens/')) for (const token of response.body.data) delete token.last_used_at;
    bodies[path] = response.body;
  }
  return bodies;
}

describe('lectern migrate-data', { skip: !postgresServerUrl }, () => {
  it('moves a served SQLite database to PostgreSQL, where everything reads back the same', async () => {
    const sqlite = await startServer({ instances: 1, dbFile: join(tempDir(), 'before.db'), args: ['--allow-private-webhook-targets'] });
    let before: Record<string, unknown>;
    let learnerToken: string;
    try {
      const api = sqlite.api;
      // the managed user exists before its manager: the copy must set the reference after both are in
      const managed = (await api.post('/api/v2/users/', { email: uniqueEmail('managed'), name: 'Managed' })).body;
      const manager = (await api.post('/api/v2/users/', { email: uniqueEmail('manager'), name: 'Manager' })).body;
      assert.equal((await api.patch(`/api/v2/users/${managed.public_id}/`, { manager: manager.public_id })).status, 200);
      const group = (await api.post('/api/v2/groups/', { name: 'Moved group' })).body;
      await api.post(`/api/v2/groups/${group.public_id}/members/`, { member_ids: [managed.public_id, manager.public_id] });
      const article = (await api.post('/api/v2/articles/', { name: 'Moved article', tags: ['kept'] })).body;
      await api.post('/api/v2/videos/', { name: 'Moved video' });
      assert.equal(
        (await api.post('/api/v2/assignments/', { user_id: managed.public_id, content_item_id: article.public_id })).status,
        201,
      );
      await api.post('/api/v2/saved-reports/', { name: 'Moved report', resource: 'users', expression: 'eq(role,user)' });
      await api.post('/public_api/v2/webhooks/', { url: 'http://127.0.0.1:9/hook', events: ['assignment.created'] });
      learnerToken = (await userWithToken(sqlite, 'user')).token;
      before = await snapshot(api);
    } finally {
      await sqlite.stop();
    }

    // the audit entries moved into the indexed log, none left staged: the copy must still number
    // new entries after them
    const file = await openSqliteStorage({ file: sqlite.dbFile });
    await file.transaction((tx) => tx.audit.settle());
    await file.close();

    const url = new URL(await freshPostgresDatabase());
    url.password = SECRET;
    const moved = await runCli(['migrate-data', '--from', sqlite.dbFile, '--to', url.toString()]);
    assert.equal(moved.code, 0, moved.stderr);
    assert.match(moved.stdout, /^Copied \d+ rows in \d+ tables from .*before\.db to postgres:\/\/lectern@/);
    assert.match(moved.stdout, /\n {2}users +4\n/, 'the admin, two users and the learner');
    assert.ok(!(moved.stdout + moved.stderr).includes(SECRET));

    const postgres = await startServer({ instances: 1, dbFile: url.toString() });
    try {
      const api = postgres.api.withToken(sqlite.adminToken);
      const after = await snapshot(api);
      for (const path of LISTS) assert.deepEqual(after[path], before[path], `${path} reads back the same, ids and timestamps included`);
      const me = await api.withToken(learnerToken).get('/api/v2/me/');
      assert.equal(me.status, 200, 'a token issued on SQLite still authenticates');
      const created = await api.post('/api/v2/users/', { email: uniqueEmail('after'), name: 'After the move' });
      assert.equal(created.status, 201, `new rows get new ids: ${created.text}`);
      const database = await openPostgresStorage({ url: url.toString() });
      try {
        await database.transaction((tx) => tx.audit.settle());
        const [newest] = (await database.audit.list(parseAuditQuery({ page_size: '1' })))!.items;
        assert.equal(newest?.resource.public_id, created.body.public_id, 'a new audit entry is the newest, once moved too');
      } finally {
        await database.close();
      }
    } finally {
      await postgres.stop();
    }

    const counted = async () => Number((await queryDatabase(url.toString(), 'select count(*) as n from users'))[0].n);
    const users = await counted();
    const again = await runCli(['migrate-data', '--from', sqlite.dbFile, '--to', url.toString()]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /not empty: table \w+ has rows/);
    assert.equal(await counted(), users, 'nothing copied twice');
  });

  it('refuses a missing file, a URL as the source and a file as the target', async () => {
    const url = await freshPostgresDatabase();
    const missing = await runCli(['migrate-data', '--from', join(tempDir(), 'absent.db'), '--to', url]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no database at/);
    assert.equal((await runCli(['migrate-data', '--from', url, '--to', url])).code, 2);
    assert.equal((await runCli(['migrate-data', '--from', join(tempDir(), 'x.db'), '--to', join(tempDir(), 'y.db')])).code, 2);
    const tables = await queryDatabase(url, `select count(*) as n from information_schema.tables where table_name = 'users'`);
    assert.equal(Number(tables[0].n), 0, 'the target was not touched');
  });
});
