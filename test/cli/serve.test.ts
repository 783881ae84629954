/** What a first-time operator meets: the version line, the bootstrap banner, and a database that cannot be opened. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lecternBin, runCli, tempDir } from '../helpers/server.ts';

describe('lectern serve and --version', () => {
  it('--version names Lectern and the Node it runs on', async () => {
    for (const flag of ['--version', '-V']) {
      const result = await runCli([flag]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, `lectern 0.1.0 (node ${process.version})\n`);
    }
  });

  it('writes the bootstrap banner to stderr: stdout is JSON lines only', async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, [lecternBin, 'serve', '--db', join(dir, 'fresh.db'), '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address:\n${stdout}\n${stderr}`)), 15_000);
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (/"url":"http/.test(stdout)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    assert.match(stderr, /Bootstrap admin API token[\s\S]*lpat_[0-9A-Za-z]{43}/);
    assert.doesNotMatch(stdout, /lpat_/);
    const lines = stdout.trimEnd().split('\n');
    assert.ok(lines.length >= 1, stdout);
    for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), `not a JSON line: ${line}`);
  });

  it('names the database it cannot open and exits 1', async () => {
    const dir = tempDir();
    const notSqlite = join(dir, 'notes.txt');
    writeFileSync(notSqlite, 'this is not a SQLite database, though it is long enough to have a header page. '.repeat(20));
    for (const db of [join(dir, 'no-such-folder', 'lectern.db'), notSqlite]) {
      const result = await runCli(['serve', '--db', db, '--port', '0']);
      assert.equal(result.code, 1, result.stderr);
      assert.ok(result.stderr.startsWith(`error: cannot open the database at ${db}: `), result.stderr);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    }
  });
});
