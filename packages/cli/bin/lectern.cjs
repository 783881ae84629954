#!/usr/bin/env node
// The bundle is built by build.mjs (run by `npm ci` through the root `prepare` script).
//
// It is loaded with V8's code cache: compiling the 4.7 MB bundle was a fifth of the CPU a server's
// start costs, and every start pays it twice (the background thread loads this file again), as does
// every command (`lectern tokens create`…): 65 ms of CPU a load, 12 with the cache. The first run
// on this Node writes the cache beside the bundle; later runs skip the compile. The cache is named
// by a hash of the bundle (about 5 ms) and by Node's version: V8 checks its own version and flags,
// but of the source only its length, so a rebuilt bundle of the same length must not meet the old
// cache (and npm gives every file one fixed modification time). A cache that cannot be read,
// written or used changes nothing but the time.
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');
const { isMainThread } = require('node:worker_threads');

const bundle = join(__dirname, '../../../dist/lectern.cjs');
const bytes = readFileSync(bundle);
const source = bytes.toString('utf8');
const build = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
const cacheDir = join(dirname(bundle), 'code-cache');
// A server's threads (background-thread.ts, the search threads) load the bundle after `serve` has
// changed a V8 flag (--heap-growing-percent, heap-growth.ts), and V8 rejects a cache made under other
// flags. With one cache for both, every start rejected and rewrote it twice, and every command after
// a start once: about 0.1 s of CPU each time. The threads keep a cache of their own.
const cacheName = `lectern-${build}-${process.version}-${process.arch}${isMainThread ? '' : '-thread'}.bin`;
let cachedData;
try {
  cachedData = readFileSync(join(cacheDir, cacheName));
} catch {
  // none yet
}
const script = new vm.Script(Module.wrap(source), {
  filename: bundle,
  cachedData,
  ...(vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER ? { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER } : {}),
});
const loaded = new Module(bundle, module);
loaded.filename = bundle;
loaded.paths = Module._nodeModulePaths(dirname(bundle));
script.runInThisContext().call(loaded.exports, loaded.exports, Module.createRequire(bundle), loaded, bundle, dirname(bundle));
loaded.loaded = true;

if (cachedData === undefined || script.cachedDataRejected) {
  // after the bundle's top level ran, so the functions it called are in the cache too
  try {
    mkdirSync(cacheDir, { recursive: true });
    // another build's caches (another Node's for this build may be in use)
    const thisBuild = `lectern-${build}-`;
    for (const old of readdirSync(cacheDir)) if (!old.startsWith(thisBuild)) rmSync(join(cacheDir, old), { force: true });
    const partial = join(cacheDir, `${cacheName}.${process.pid}.${Math.random().toString(36).slice(2)}`);
    writeFileSync(partial, script.createCachedData());
    renameSync(partial, join(cacheDir, cacheName));
  } catch {
    // a read-only install: every start compiles, as without the cache
  }
}
