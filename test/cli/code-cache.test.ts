/**
 * packages/cli/bin/lectern.cjs loads the bundle through V8's code cache: written by the first run,
 * used by the next, and never used for another build, even one of the same length (V8 checks only a
 * source's length). Run on a stand-in bundle laid out as the repository lays out the real one.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lecternBin, tempDir } from '../helpers/server.ts';

/** A checkout-shaped folder: the real bin, and a bundle that prints `says` and what it was called with. */
function standIn() {
  const root = tempDir();
  mkdirSync(join(root, 'packages/cli/bin'), { recursive: true });
  mkdirSync(join(root, 'dist'));
  const bin = join(root, 'packages/cli/bin/lectern.cjs');
  copyFileSync(lecternBin, bin);
  const writeBundle = (says: string) =>
    writeFileSync(
      join(root, 'dist/lectern.cjs'),
      `module.exports = 1;\nconsole.log(${JSON.stringify(says)}, process.argv.slice(2).join(' '), __filename === require.resolve('./lectern.cjs'));\n`,
    );
  const run = (...args: string[]) => execFileSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
  const caches = () => readdirSync(join(root, 'dist/code-cache'));
  return { root, writeBundle, run, caches };
}

describe('the bundle loaded through a code cache', () => {
  it('writes the cache on the first run and runs from it, unchanged, on the next', () => {
    const { root, writeBundle, run, caches } = standIn();
    writeBundle('build one');
    assert.equal(run('tokens', 'list'), 'build one tokens list true\n');
    const [cache] = caches();
    assert.match(cache!, new RegExp(`^lectern-[0-9a-f]{16}-${process.version}-${process.arch}\\.bin$`));
    const written = statSync(join(root, 'dist/code-cache', cache!));
    assert.equal(run('serve'), 'build one serve true\n');
    // V8 took it: a rejected cache is written again
    assert.deepEqual(caches(), [cache]);
    assert.equal(statSync(join(root, 'dist/code-cache', cache!)).mtimeMs, written.mtimeMs);
  });

  it('keeps a cache for threads apart, so a server that changed a V8 flag before starting them rewrites neither', () => {
    const { root, run, caches } = standIn();
    // as `serve` does: a V8 flag changed (heap-growth.ts) once the top level has returned (after the
    // main thread's cache was written), then a thread running the same script
    writeFileSync(
      join(root, 'dist/lectern.cjs'),
      `const { isMainThread, Worker } = require('node:worker_threads');\n` +
        `if (isMainThread) setImmediate(() => { require('node:v8').setFlagsFromString('--heap-growing-percent=150'); new Worker(process.argv[1]); });\n` +
        `else console.log('thread');\n`,
    );
    assert.equal(run('serve'), 'thread\n');
    const written = caches().sort();
    assert.equal(written.length, 2);
    assert.match(written[0]!, new RegExp(`^lectern-[0-9a-f]{16}-${process.version}-${process.arch}-thread\\.bin$`));
    const mtimes = () => written.map((name) => statSync(join(root, 'dist/code-cache', name)).mtimeMs);
    const before = mtimes();
    // V8 took both, the main thread's under the flags of a fresh process, the thread's under the changed one
    assert.equal(run('serve'), 'thread\n');
    assert.equal(run('tokens'), 'thread\n');
    assert.deepEqual(caches().sort(), written);
    assert.deepEqual(mtimes(), before);
  });

  it('runs a rebuilt bundle of the same length as it is, not from the old cache, and drops the old cache', () => {
    const { writeBundle, run, caches } = standIn();
    writeBundle('build one');
    run();
    const [old] = caches();
    writeBundle('build two');
    assert.equal(run(), 'build two  true\n');
    const now = caches();
    assert.equal(now.length, 1);
    assert.notEqual(now[0], old);
  });

  it('runs without a cache where it cannot write one', () => {
    const { root, writeBundle, run } = standIn();
    writeBundle('read-only');
    // a file where the cache folder would be: nothing can be written there
    writeFileSync(join(root, 'dist/code-cache'), '');
    assert.equal(run('x'), 'read-only x true\n');
    assert.equal(run('y'), 'read-only y true\n');
  });
});
