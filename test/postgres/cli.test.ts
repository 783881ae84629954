/**
 * The CLI on a PostgreSQL URL: migrate, tokens and serve take it where they take a file, and the
 * URL's password never reaches the output. The test server trusts local connections, so any
 * password is accepted; it only has to stay secret.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshPostgresDatabase, postgresServerUrl } from '../helpers/postgres.ts';
import { runCli, startServer, uniqueEmail } from '../helpers/server.ts';

const SECRET = 'pw-never-printed-4711';

async function urlWithPassword(): Promise<string> {
  const url = new URL(await freshPostgresDatabase());
  url.password = SECRET;
  return url.toString();
}

describe('the CLI on PostgreSQL', { skip: !postgresServerUrl }, () => {
  it('migrates a database named by URL once, without printing its password', async () => {
    const url = await urlWithPassword();
    const first = await runCli(['migrate', '--db', url]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /Applied \d+ migrations to postgres:\/\/lectern@/);
    assert.match(first.stdout, /0001-foundation/);
    const again = await runCli(['migrate', '--db', url]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /is up to date; no migration applied/);
    for (const output of [first, again]) assert.ok(!(output.stdout + output.stderr).includes(SECRET));
  });

  it('serves, and issues tokens while serving, without printing the password', async () => {
    const url = await urlWithPassword();
    const server = await startServer({ dbFile: url, instances: 1 });
    try {
      const email = uniqueEmail('pg-cli');
      assert.equal((await server.api.post('/api/v2/users/', { email, name: 'Token holder' })).status, 201);
      const issued = await runCli(['tokens', 'create', '--db', url, '--email', email, '--name', 'cli', '--json']);
      assert.equal(issued.code, 0, issued.stderr);
      const me = await server.api.withToken(JSON.parse(issued.stdout).token).get('/api/v2/me/');
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.user.email, email);
      assert.ok(!(server.output() + issued.stdout + issued.stderr).includes(SECRET));
    } finally {
      await server.stop();
    }
  });

  it('refuses to back up a PostgreSQL database, pointing at pg_dump', async () => {
    const result = await runCli(['backup', '/tmp/lectern-never-written.db', '--db', await urlWithPassword()]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /pg_dump/);
    assert.ok(!result.stderr.includes(SECRET));
  });
});
