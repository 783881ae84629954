import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ApiClient, lecternBin, runCli, runCliJson, startServer, tempDir, uniqueEmail } from './helpers/server.ts';

describe('lectern CLI', () => {
  it('prints help for every command and exits 0', async () => {
    for (const args of [
      ['--help'],
      ['serve', '--help'],
      ['migrate', '--help'],
      ['backup', '--help'],
      ['tokens', '--help'],
      ['tokens', 'create', '--help'],
      ['tokens', 'list', '--help'],
      ['tokens', 'revoke', '--help'],
      ['users', '--help'],
      ['users', 'set-role', '--help'],
    ]) {
      const result = await runCli(args);
      assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stdout, /Usage: lectern/);
    }
  });

  it('rejects bad flags with a one-line error and exit code 2', async () => {
    const cases = [
      ['serve', '--port', 'eighty'],
      ['serve', '--no-such-flag'],
      ['serve', '--rate-limit', '0'],
      ['serve', '--log-level', 'loud'],
      ['tokens', 'create', '--email', 'a@example.com'],
      ['tokens', 'create', '--email', 'a@example.com', '--name', 'x', '--role', 'king'],
      ['tokens', 'create', '--email', 'a@example.com', '--name', 'x', '--expires-at', 'soon'],
      ['tokens', 'revoke'],
      ['nonsense'],
    ];
    for (const args of cases) {
      const result = await runCli(args);
      assert.equal(result.code, 2, `${args.join(' ')} exited ${result.code}: ${result.stderr}`);
      assert.equal(result.stderr.trim().split('\n').length, 1, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, /^error: /);
    }
  });

  it('creates tokens that work at once against a running server, lists and revokes them', async () => {
    const server = await startServer();
    const email = uniqueEmail('cli');
    const created = await runCli(['tokens', 'create', '--db', server.dbFile, '--email', email, '--name', 'laptop', '--role', 'admin']);
    assert.equal(created.code, 0, created.stderr);
    const lines = created.stdout.trim().split('\n');
    const token = lines.at(-1)!;
    assert.match(token, /^lpat_[0-9A-Za-z]{43}$/, 'the token is the last line');
    assert.match(created.stdout, /Created admin user/);

    const api = new ApiClient(server.url, token);
    const me = await api.get(`/api/v2/users/?email=${encodeURIComponent(email)}`);
    assert.equal(me.status, 200);
    assert.equal(me.body.data[0].role, 'admin');

    const learner = uniqueEmail('learner');
    const issued = await runCliJson([
      'tokens',
      'create',
      '--db',
      server.dbFile,
      '--email',
      learner,
      '--name',
      'phone',
      '--role',
      'user',
      '--scopes',
      'content:read,assignments:read',
      '--expires-at',
      '2099-01-01T00:00:00Z',
    ]);
    assert.deepEqual(issued.scopes, ['content:read', 'assignments:read']);
    assert.equal(issued.expires_at, '2099-01-01T00:00:00.000Z');
    assert.equal(issued.user.email, learner);
    assert.equal((await new ApiClient(server.url, issued.token).get('/api/v2/users/')).body.error.code, 'forbidden');

    const denied = await runCli(['tokens', 'create', '--db', server.dbFile, '--email', learner, '--name', 'x', '--scopes', 'users:write']);
    assert.equal(denied.code, 1);
    assert.match(denied.stderr, /^error: .*users:write/);
    assert.equal(denied.stderr.trim().split('\n').length, 1);

    const tokens = await runCliJson(['tokens', 'list', '--db', server.dbFile, '--user', email]);
    assert.equal(tokens.length, 1);
    assert.equal(tokens[0].token, undefined, 'lists never show the secret');
    const text = await runCli(['tokens', 'list', '--db', server.dbFile]);
    assert.match(text.stdout, new RegExp(tokens[0].public_id));

    const revoked = await runCli(['tokens', 'revoke', tokens[0].public_id, '--db', server.dbFile]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal((await api.get('/api/v2/users/')).body.error.code, 'invalid_token');
    const again = await runCli(['tokens', 'revoke', tokens[0].public_id, '--db', server.dbFile]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, new RegExp(`^error: API token ${tokens[0].public_id} was already revoked at \\d{4}-`), again.stderr);
    const unknown = await runCli(['tokens', 'revoke', '00000000-0000-4000-8000-000000000000', '--db', server.dbFile]);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, 'error: API token not found.\n');
    assert.equal(await server.stop(), 0);
  });

  it('reads settings from the environment, bootstraps only once and stops cleanly on SIGTERM', async () => {
    const dbFile = join(tempDir(), 'env.db');
    const first = await startServer({ dbFile, env: { LECTERN_RATE_LIMIT: '7', LECTERN_LOG_LEVEL: 'info' } });
    try {
      const response = await first.api.get('/api/v2/users/');
      assert.equal(response.headers.get('x-ratelimit-limit'), '7');
      await first.waitForOutput(/"route":"\/api\/v2\/users","status":200/);
      // twice, both in the banner (the token line and the curl example), never in a log line
      assert.equal(first.output().split(first.adminToken).length - 1, 2);
    } finally {
      assert.equal(await first.stop(), 0);
    }
    assert.match(first.output(), /"msg":"stopped"/);

    const second = await startServer({ dbFile });
    try {
      assert.equal(second.adminToken, '', 'no second bootstrap token');
      assert.doesNotMatch(second.output(), /Bootstrap admin API token/);
      assert.equal((await second.api.withToken(first.adminToken).get('/api/v2/users/')).status, 200);
    } finally {
      assert.equal(await second.stop(), 0);
    }
  });

  it('warns at start-up, at warn level, when private webhook targets are allowed', async () => {
    const warning = /"level":40,.*"allow_private_webhook_targets":true,.*"msg":"webhook targets may be private/;
    const allowed = await startServer({ args: ['--allow-private-webhook-targets', '--log-level', 'error'] });
    try {
      await allowed.waitForOutput(warning);
    } finally {
      await allowed.stop();
    }
    const fromEnv = await startServer({ env: { LECTERN_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' } });
    try {
      await fromEnv.waitForOutput(warning);
    } finally {
      await fromEnv.stop();
    }
    const normal = await startServer();
    try {
      // a request's log line comes after anything start-up logs
      await normal.api.get('/healthz');
      await normal.waitForOutput(/"route":"\/healthz"/);
      assert.doesNotMatch(normal.output(), /allow_private_webhook_targets/);
    } finally {
      await normal.stop();
    }
  });

  it('on a terminal, also shows a banner line about private webhook targets', async () => {
    // `script` runs the server on a pseudo-terminal, as an operator starting it by hand would
    const dbFile = join(tempDir(), 'tty.db');
    const command = `exec ${process.execPath} ${lecternBin} serve --db ${dbFile} --port 0 --allow-private-webhook-targets`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const deadline = Date.now() + 15_000;
      while (!/Lectern listening/.test(output) && Date.now() < deadline && child.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.match(output, /\n {2}WARNING: webhook targets may be private or loopback addresses/);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  });

  it('never logs a token', async () => {
    const server = await startServer();
    const created = await server.api.post('/api/v2/api-tokens/', { name: 'secret-check' });
    await server.api.withToken(created.body.token).get('/api/v2/users/');
    await server.api.withToken('lpat_' + 'x'.repeat(43)).get('/api/v2/users/');
    await server.waitForOutput(/"status":401/);
    await server.stop();
    const logLines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    assert.ok(logLines.length >= 3);
    for (const line of logLines) {
      assert.doesNotMatch(line, /lpat_/);
      assert.doesNotMatch(line, /Bearer/i);
    }
  });
});
