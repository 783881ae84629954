/** The CLI never creates a database by accident, never guesses a role, and ends quietly on a closed pipe. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lecternBin, runCli, runCliJson, tempDir, uniqueEmail } from '../helpers/server.ts';

async function migratedDatabase(): Promise<string> {
  const dbFile = join(tempDir(), 'lectern.db');
  const result = await runCli(['migrate', '--db', dbFile]);
  assert.equal(result.code, 0, result.stderr);
  return dbFile;
}

/** Runs the CLI with its standard output already closed by the reader, as `| head -0` would. */
function runWithClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [lecternBin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

describe('lectern CLI safety', () => {
  it('creates no database outside serve and migrate: a missing --db file exits 2', async () => {
    const typo = join(tempDir(), 'lectren.db');
    const commands = [
      ['tokens', 'create', '--db', typo, '--email', uniqueEmail('typo'), '--name', 'x', '--role', 'admin'],
      ['tokens', 'list', '--db', typo],
      ['tokens', 'revoke', '00000000-0000-4000-8000-000000000000', '--db', typo],
    ];
    for (const args of commands) {
      const result = await runCli(args);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stderr, `error: no database at ${typo}\n`);
      assert.equal(existsSync(typo), false, `${args.slice(0, 2).join(' ')} created ${typo}`);
    }
    const fromEnv = await runCli(['tokens', 'list'], { LECTERN_DB: typo });
    assert.equal(fromEnv.code, 2);
    assert.equal(existsSync(typo), false);
  });

  it('migrate creates or upgrades a database and names the migrations it applied', async () => {
    const dbFile = join(tempDir(), 'fresh.db');
    const first = await runCli(['migrate', '--db', dbFile]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^Applied \d+ migrations to .*fresh\.db:\n/);
    assert.match(first.stdout, /^ {2}0001-foundation$/m);
    const second = await runCli(['migrate', '--db', dbFile]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /is up to date; no migration applied/);
    const listed = await runCli(['tokens', 'list', '--db', dbFile]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(listed.stdout, 'No active tokens.\n');
    const missing = await runCli(['migrate']);
    assert.equal(missing.code, 2, 'migrate needs an explicit --db');
  });

  it('tokens create needs --role for a new email and rejects a --role that contradicts the stored user', async () => {
    const dbFile = await migratedDatabase();
    const email = uniqueEmail('role');
    const noRole = await runCli(['tokens', 'create', '--db', dbFile, '--email', email, '--name', 'x']);
    assert.equal(noRole.code, 2);
    assert.match(noRole.stderr, /^error: no user has the email .*; pass --role \(admin\|organizer\|user\) to create one\n$/);
    assert.equal((await runCli(['tokens', 'list', '--db', dbFile, '--json'])).stdout, '[]\n', 'nothing was created');

    const created = await runCliJson(['tokens', 'create', '--db', dbFile, '--email', email, '--name', 'x', '--role', 'organizer']);
    assert.equal(created.created_user, true);

    const contradicting = await runCli(['tokens', 'create', '--db', dbFile, '--email', email, '--name', 'y', '--role', 'admin']);
    assert.equal(contradicting.code, 2);
    assert.match(contradicting.stderr, /^error: .* is already a user with role organizer, not admin/);

    for (const roleArgs of [[], ['--role', 'organizer']]) {
      const again = await runCliJson(['tokens', 'create', '--db', dbFile, '--email', email, '--name', 'z', ...roleArgs]);
      assert.equal(again.created_user, false);
    }
    const tokens = await runCliJson(['tokens', 'list', '--db', dbFile]);
    assert.deepEqual(tokens.map((token: { name: string }) => token.name).sort(), ['x', 'z', 'z']);
  });

  it('ends quietly when the reader closes the pipe early', async () => {
    const dbFile = await migratedDatabase();
    for (let i = 0; i < 3; i++) {
      const created = await runCli([
        'tokens',
        'create',
        '--db',
        dbFile,
        '--email',
        uniqueEmail('pipe'),
        '--name',
        `t${i}`,
        '--role',
        'user',
      ]);
      assert.equal(created.code, 0, created.stderr);
    }
    for (const args of [['tokens', 'list', '--db', dbFile], ['tokens', 'list', '--db', dbFile, '--json'], ['--help']]) {
      const result = await runWithClosedStdout(args);
      assert.equal(result.stderr, '', `${args.join(' ')} wrote to stderr`);
      assert.equal(result.code, 0, args.join(' '));
    }
  });
});
