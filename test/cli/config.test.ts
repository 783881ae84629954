/** `lectern serve --config FILE`: flags beat environment variables beat the file beat defaults. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, startServer, tempDir } from '../helpers/server.ts';

function configFile(text: string): string {
  const file = join(tempDir(), 'lectern.toml');
  writeFileSync(file, text);
  return file;
}

/** The rate limit a server started this way applies, read from its response headers. */
async function rateLimitOf(options: { args?: string[]; env?: Record<string, string> }): Promise<string | null> {
  const server = await startServer(options);
  try {
    return (await server.api.get('/api/v2/users/')).headers.get('x-ratelimit-limit');
  } finally {
    await server.stop();
  }
}

describe('serve settings from a config file', () => {
  it('takes each setting from the flag, else the environment, else the file, else the default', async () => {
    const file = configFile('rate_limit = 7\n');
    assert.equal(await rateLimitOf({ args: ['--config', file, '--rate-limit', '9'], env: { LECTERN_RATE_LIMIT: '8' } }), '9');
    assert.equal(await rateLimitOf({ args: ['--config', file], env: { LECTERN_RATE_LIMIT: '8' } }), '8');
    assert.equal(await rateLimitOf({ args: ['--config', file] }), '7');
    assert.equal(await rateLimitOf({ env: { LECTERN_CONFIG: file } }), '7', 'LECTERN_CONFIG names the file too');
    assert.equal(await rateLimitOf({}), '600');
  });

  it('reads switches and lists in their TOML types (webhook retries, CORS origins); an environment variable can switch one back off', async () => {
    const file = configFile(
      'disable_webhooks = true\nwebhook_retry_schedule = [1, 2]\nlog_level = "warn"\ncors_origins = ["https://app.example.com"]\n',
    );
    const disabled = await startServer({ args: ['--config', file] });
    try {
      assert.equal((await disabled.api.get('/public_api/v2/webhooks/')).status, 503);
      const crossOrigin = await disabled.api.get('/api/v2/me/', { headers: { origin: 'https://app.example.com' } });
      assert.equal(crossOrigin.headers.get('access-control-allow-origin'), 'https://app.example.com', 'cors_origins from the file');
      await disabled.api.get('/api/v2/users/');
    } finally {
      await disabled.stop();
    }
    assert.doesNotMatch(disabled.output(), /"msg":"request"/, 'log_level warn from the file hides request lines');

    const enabled = await startServer({ args: ['--config', file], env: { LECTERN_DISABLE_WEBHOOKS: 'false' } });
    try {
      assert.equal((await enabled.api.get('/public_api/v2/webhooks/')).status, 200);
    } finally {
      await enabled.stop();
    }
  });

  it('takes true or false after an on/off flag, as the environment does; the flag alone means true', async () => {
    const file = configFile('disable_webhooks = true\n');
    const webhooksStatus = async (args: string[]) => {
      const server = await startServer({ args });
      try {
        return (await server.api.get('/public_api/v2/webhooks/')).status;
      } finally {
        await server.stop();
      }
    };
    assert.equal(await webhooksStatus(['--config', file, '--disable-webhooks', 'false']), 200, 'the flag switches the file back off');
    assert.equal(await webhooksStatus(['--disable-webhooks', 'true']), 503);
    assert.equal(await webhooksStatus(['--disable-webhooks']), 503);
    const bad = await runCli(['serve', '--disable-webhooks', 'maybe', '--db', join(tempDir(), 'never.db')]);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /--disable-webhooks.*expected true or false/);
  });

  // a case that wrongly passed would leave a server running: the timeout turns that into a failure.
  // It is not a speed limit: eleven CLI starts took over 60 s with test files running side by side.
  it('exits 2 naming the file and the key for an unknown key, a bad value or bad TOML', { timeout: 180_000 }, async () => {
    const cases: Array<[string, RegExp]> = [
      ['rate_limt = 5\n', /unknown setting 'rate_limt'/],
      ['[webhooks]\nenabled = false\n', /unknown setting 'webhooks'/],
      ['rate_limit = 0\n', /rate_limit: expected a whole number of at least 1\. Got 0\./],
      ['rate_limit = "600"\n', /rate_limit: expected a whole number of at least 1\. Got "600"\./],
      ['port = 70000\n', /port: expected a port number from 0 to 65535/],
      ['disable_webhooks = "yes"\n', /disable_webhooks: expected true or false/],
      ['log_level = "loud"\n', /log_level: expected one of fatal, error, warn, info, debug, trace, silent/],
      ['public_url = "ftp://example.com"\n', /public_url: expected an absolute http:\/\/ or https:\/\/ URL/],
      ['webhook_retry_schedule = []\n', /webhook_retry_schedule: expected an array of seconds/],
      ['rate_limit = \n', /not valid TOML/],
    ];
    for (const [text, message] of cases) {
      const file = configFile(text);
      const result = await runCli(['serve', '--config', file, '--db', join(tempDir(), 'never.db')]);
      assert.equal(result.code, 2, `${text}: ${result.stderr}`);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.ok(result.stderr.startsWith(`error: ${file}`), result.stderr);
      assert.match(result.stderr, message);
    }
    const missing = join(tempDir(), 'missing.toml');
    const absent = await runCli(['serve', '--config', missing]);
    assert.equal(absent.code, 2);
    assert.equal(absent.stderr, `error: no config file at ${missing}\n`);
  });

  it('exits 2 naming the variable for a bad environment value', { timeout: 30_000 }, async () => {
    const result = await runCli(['serve', '--port', '0', '--db', join(tempDir(), 'never.db')], { LECTERN_RATE_LIMIT: 'lots' });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, 'error: environment variable LECTERN_RATE_LIMIT: expected a whole number of at least 1. Got "lots".\n');
  });
});
