import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, tempDir } from './helpers/server.ts';

describe('single executable', () => {
  it('builds dist/lectern and serves the API with nothing but itself', async () => {
    const build = spawnSync(process.execPath, [join(repoRoot, 'build.mjs'), '--sea'], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    const dir = tempDir();
    // an empty environment apart from the cache folder: no node_modules lookup, no NODE_OPTIONS
    const child = spawn(join(repoRoot, 'dist/lectern'), ['serve', '--db', join(dir, 'sea.db'), '--port', '0'], {
      cwd: dir,
      env: { LECTERN_CACHE_DIR: join(dir, 'cache'), PATH: '/usr/bin:/bin' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(output)), 15_000);
        child.stdout.on('data', () => {
          const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
      });
      const token = /lpat_[0-9A-Za-z]{43}/.exec(output)![0];
      const response = await fetch(`${url}/api/v2/users/`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { data: Array<{ role: string }> }).data[0]!.role, 'admin');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
