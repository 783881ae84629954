/**
 * `lectern console-url` and `POST /api/v2/console/sign-in/`: a link signs its user in once,
 * within 10 minutes, for a 12-hour token with the role's scopes; the code is stored only hashed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queryDatabase } from '../helpers/database.ts';
import { expectFieldError, runCli, uniqueEmail, useServer } from '../helpers/server.ts';

const LINK = /^http:\/\/lectern\.example\.org:8080\/console\/sign-in\?code=([A-Za-z0-9_-]{43})$/;

describe('one-time console sign-in links', () => {
  const server = useServer();

  async function linkFor(email: string): Promise<string> {
    const cli = await runCli(['console-url', '--db', server.dbFile, '--email', email, '--base-url', 'http://lectern.example.org:8080/']);
    assert.equal(cli.code, 0, cli.stderr);
    const match = LINK.exec(cli.stdout.trim());
    assert.ok(match, cli.stdout);
    return match[1]!;
  }

  it('exchanges a code once for a 12-hour token of its user with the role’s scopes', async () => {
    const email = uniqueEmail('organizer');
    const created = await server.api.post('/api/v2/users/', { email, name: 'Org', role: 'organizer' });
    assert.equal(created.status, 201, created.text);
    const code = await linkFor(email);

    const exchanged = await server.api.post('/api/v2/console/sign-in/', { code }, { token: null });
    assert.equal(exchanged.status, 201, exchanged.text);
    const hours = (Date.parse(exchanged.body.expires_at) - Date.now()) / 3_600_000;
    assert.ok(hours > 11.9 && hours <= 12, `${hours} h`);

    const me = await server.api.get('/api/v2/me/', { token: exchanged.body.token });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.user.email, email);
    const tokens = await server.api.get('/api/v2/api-tokens/', { token: exchanged.body.token });
    const issued = tokens.body.data.find((token: any) => token.name === 'console sign-in');
    assert.ok(issued, tokens.text);
    assert.ok(issued.scopes.includes('users:read'));
    assert.ok(!issued.scopes.includes('tokens:admin'));

    const again = await server.api.post('/api/v2/console/sign-in/', { code }, { token: null });
    expectFieldError(again, 'code');
    assert.match(again.body.error.field_errors.code[0], /already used/);
  });

  it('keeps only the hash of the code, and refuses an expired one', async () => {
    const email = uniqueEmail('admin');
    assert.equal((await server.api.post('/api/v2/users/', { email, name: 'Adm', role: 'admin' })).status, 201);
    const code = await linkFor(email);
    const rows = await queryDatabase(server.dbFile, 'select code_hash, expires_at, created from sign_in_links');
    assert.ok(rows.length > 0);
    assert.ok(rows.every((row: any) => row.code_hash !== code && /^[0-9a-f]{64}$/.test(row.code_hash)));
    const minutes = rows.map((row: any) => (Date.parse(row.expires_at) - Date.parse(row.created)) / 60_000);
    assert.ok(
      minutes.every((m) => m === 10),
      String(minutes),
    );

    await queryDatabase(server.dbFile, "update sign_in_links set expires_at = '2000-01-01T00:00:00.000Z'");
    expectFieldError(await server.api.post('/api/v2/console/sign-in/', { code }, { token: null }), 'code');
  });

  it('refuses unknown codes and bad bodies in the error envelope (422 on `code`)', async () => {
    expectFieldError(await server.api.post('/api/v2/console/sign-in/', { code: 'not-a-code' }, { token: null }), 'code');
    expectFieldError(await server.api.post('/api/v2/console/sign-in/', {}, { token: null }), 'code');
    expectFieldError(await server.api.post('/api/v2/console/sign-in/', { code: 'x', extra: 1 }, { token: null }), 'extra');
  });

  it('names an unknown email or a bad base URL on the command line', async () => {
    const help = await runCli(['console-url', '--help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /--email <email>/);
    const missing = await runCli(['console-url', '--db', server.dbFile]);
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr.trim().split('\n').length, 1, missing.stderr);
    const unknown = await runCli(['console-url', '--db', server.dbFile, '--email', 'nobody@example.com']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no user has the email nobody@example\.com/);
    const badBase = await runCli(['console-url', '--db', server.dbFile, '--email', 'x@example.com', '--base-url', 'ftp://x']);
    assert.equal(badBase.code, 2);
    assert.match(badBase.stderr, /http/);
    // the serve setting's variable names the address too
    const fromEnv = await runCli(['console-url', '--db', server.dbFile, '--email', 'admin@example.com'], {
      LECTERN_PUBLIC_URL: 'https://lectern.example.org',
    });
    assert.equal(fromEnv.code, 0, fromEnv.stderr);
    assert.match(fromEnv.stdout, /^https:\/\/lectern\.example\.org\/console\/sign-in\?code=/);
  });
});

describe('the sign-in exchange and the rate limit', () => {
  const server = useServer({ args: ['--rate-limit', '3'] });

  it('counts against the per-address limit of requests without a token', async () => {
    for (let i = 0; i < 3; i++)
      expectFieldError(await server.api.post('/api/v2/console/sign-in/', { code: `guess-${i}` }, { token: null }), 'code');
    const refused = await server.api.post('/api/v2/console/sign-in/', { code: 'guess-3' }, { token: null });
    assert.equal(refused.status, 429, refused.text);
    assert.ok(refused.headers.get('retry-after'));
  });
});
