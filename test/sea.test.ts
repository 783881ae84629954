import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { repoRoot, tempDir } from './helpers/server.ts';

const executable = join(repoRoot, 'dist/lectern');
const uid = process.getuid!();
/** The Node LTS the build embedded and the addon it built for it (build.mjs writes this beside the blob). */
let runtime: { node: string; version: string; addon: string };
let addonDigest: string;
let addonFileName: string;

/** Runs the executable to completion with only `env` (no HOME unless given). */
function runExecutable(args: string[], env: Record<string, string>) {
  const result = spawnSync(executable, args, {
    env: { PATH: '/usr/bin:/bin', ...env },
    encoding: 'utf8',
    timeout: 20_000,
    // `openapi` prints about a megabyte
    maxBuffer: 16 * 1024 * 1024,
  });
  assert.equal(result.error, undefined, 'the executable must finish on its own');
  return result;
}

const sha256Of = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('single executable', () => {
  before(() => {
    const build = spawnSync(process.execPath, [join(repoRoot, 'build.mjs'), '--sea-only'], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
    runtime = JSON.parse(readFileSync(join(repoRoot, 'dist/sea/runtime.json'), 'utf8'));
    addonDigest = sha256Of(runtime.addon);
    addonFileName = `better_sqlite3-${addonDigest.slice(0, 16)}.node`;
  });

  it('embeds the Node LTS, not the Node that built it, and says so in --version', () => {
    assert.match(runtime.version, /^v24\./);
    const result = runExecutable(['--version'], {});
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, `lectern 0.1.0 (node ${runtime.version})\n`);
    // a command that opens SQLite and ends leaves statements for the last garbage collection: with
    // an addon built against 24.19's headers or later, that aborted the process (exit 134)
    const dir = tempDir();
    for (let i = 0; i < 3; i++) {
      const described = runExecutable(['openapi'], { LECTERN_CACHE_DIR: join(dir, 'cache') });
      assert.equal(described.status, 0, described.stderr);
      assert.equal(JSON.parse(described.stdout).openapi, '3.1.0');
    }
    // the embedded addon is the one built for that Node: it loads there
    const load = spawnSync(runtime.node, ['-e', `require(${JSON.stringify(runtime.addon)})`], { encoding: 'utf8' });
    assert.equal(load.status, 0, load.stderr);
  });

  it('serves the API with nothing but itself', async () => {
    const dir = tempDir();
    // an empty environment apart from the cache folder: no node_modules lookup, no NODE_OPTIONS
    const child = spawn(executable, ['serve', '--db', join(dir, 'sea.db'), '--port', '0'], {
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
      // the API reference page's viewer travels inside the executable too
      const viewer = await fetch(`${url}/api/v2/docs/swagger-ui-bundle.js`);
      assert.equal(viewer.status, 200);
      assert.deepEqual(
        Buffer.from(await viewer.arrayBuffer()),
        readFileSync(join(repoRoot, 'node_modules/swagger-ui-dist/swagger-ui-bundle.js')),
      );
      // and so does the web console: the page, and a file it loads by its hashed name
      const page = await fetch(`${url}/console/`);
      assert.equal(page.status, 200);
      const html = await page.text();
      const manifest = JSON.parse(readFileSync(join(repoRoot, 'packages/console/dist/manifest.json'), 'utf8')) as { entry: string };
      assert.ok(html.includes(`/console/${manifest.entry}`), html);
      const entry = await fetch(`${url}/console/${manifest.entry}`);
      assert.equal(entry.status, 200);
      assert.equal(entry.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.deepEqual(Buffer.from(await entry.arrayBuffer()), readFileSync(join(repoRoot, 'packages/console/dist', manifest.entry)));
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  it('exits 1 with one line naming the folder and LECTERN_CACHE_DIR when the cache folder cannot be written', () => {
    const dir = tempDir();
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const cache = join(blocker, 'cache');
    const result = runExecutable(['migrate', '--db', join(dir, 'x.db')], { LECTERN_CACHE_DIR: cache });
    assert.equal(result.status, 1, result.stderr);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.ok(result.stderr.includes(cache), result.stderr);
    assert.match(result.stderr, /LECTERN_CACHE_DIR/);
  });

  it('replaces, never loads, a cached addon whose bytes do not match its name', () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    mkdirSync(cache);
    const planted = join(cache, addonFileName);
    writeFileSync(planted, 'planted: not the addon this executable carries');
    const result = runExecutable(['migrate', '--db', join(dir, 'x.db')], { LECTERN_CACHE_DIR: cache });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(sha256Of(planted), addonDigest, 'the planted file was rewritten with the embedded addon');
    assert.deepEqual(readdirSync(cache), [addonFileName], 'no temporary file is left behind');
  });

  it('needs no writable home: falls back to a private per-user folder in the temp folder', () => {
    const dir = tempDir();
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const homes: Array<Record<string, string>> = [{}, { HOME: join(blocker, 'home') }];
    for (const home of homes) {
      const temp = join(dir, `tmp-${Object.keys(home).length}`);
      mkdirSync(temp);
      const result = runExecutable(['migrate', '--db', join(temp, 'x.db')], { ...home, TMPDIR: temp });
      assert.equal(result.status, 0, result.stderr);
      const folder = join(temp, `lectern-${uid}`);
      const stats = statSync(folder);
      assert.equal(stats.mode & 0o777, 0o700);
      assert.equal(stats.uid, uid);
      assert.equal(sha256Of(join(folder, addonFileName)), addonDigest);
    }
  });

  it('refuses a temp cache folder that others can enter', () => {
    const temp = tempDir();
    const shared = join(temp, `lectern-${uid}`);
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const result = runExecutable(['migrate', '--db', join(temp, 'x.db')], { TMPDIR: temp });
    assert.equal(result.status, 1, result.stderr);
    assert.ok(result.stderr.includes(shared), result.stderr);
    assert.match(result.stderr, /LECTERN_CACHE_DIR/);
    assert.deepEqual(readdirSync(shared), [], 'nothing was written into the shared folder');
  });
});
