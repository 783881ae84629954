// Runs every *.test.ts under packages/ and test/ with node:test (Node 20 does not expand globs).
// Usage: node scripts/run-tests.mjs [path-substring ...] to run a subset; `!substring` leaves files out.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { makeRunFixtures } from './run-fixtures.mjs';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2).filter((f) => !f.startsWith('!'));
const excluded = process.argv
  .slice(2)
  .filter((f) => f.startsWith('!'))
  .map((f) => f.slice(1));

function findTests(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findTests(path));
    else if (entry.name.endsWith('.test.ts')) found.push(relative(root, path));
  }
  return found;
}

const files = ['packages', 'test', 'examples']
  // examples/ is optional: a fresh checkout has none
  .filter((dir) => existsSync(join(root, dir)))
  .flatMap((dir) => findTests(join(root, dir)))
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .filter((file) => !excluded.some((f) => file.includes(f)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
/**
 * The PostgreSQL server the storage contract runs against (and, with LECTERN_TEST_DATABASE=postgres,
 * the black-box tests): the one LECTERN_TEST_POSTGRES_URL names, or a throwaway one started here
 * with scripts/postgres.sh and stopped at the end. CI must have one; elsewhere its absence is said.
 */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let postgres;
if (!process.env.LECTERN_TEST_POSTGRES_URL) {
  const dir = mkdtempSync(join(tmpdir(), 'lectern-pg-'));
  const started = spawnSync('bash', [join(root, 'scripts/postgres.sh'), 'start', dir, String(await freePort())], { encoding: 'utf8' });
  if (started.status === 0) {
    postgres = { dir, url: started.stdout.trim() };
  } else {
    rmSync(dir, { recursive: true, force: true });
    const why = `PostgreSQL could not be started (scripts/postgres.sh): ${started.stderr.trim() || started.stdout.trim()}`;
    if (process.env.CI) {
      console.error(why);
      process.exit(1);
    }
    console.warn(`${why}\nThe PostgreSQL runs of the storage contract are left out.`);
  }
}

const postgresUrl = postgres?.url ?? process.env.LECTERN_TEST_POSTGRES_URL;
// only files under test/ start servers; a PostgreSQL template only serves servers on PostgreSQL
const startsServers = files.some((file) => file.startsWith('test/'));
const serversOnPostgres =
  process.env.LECTERN_TEST_DATABASE === 'postgres' ||
  (!process.env.LECTERN_TEST_DATABASE && files.some((file) => file.startsWith('test/http/')));
const fixtures = startsServers
  ? await makeRunFixtures(root, serversOnPostgres ? postgresUrl : undefined)
  : { env: {}, cleanup: async () => undefined };

// One Chromium for the run's browser tests, each file connecting to it (test/console/chromium.ts):
// a browser's start-up, paid once instead of once per file. Without it each file starts its own.
let browser;
if (files.some((file) => file.startsWith('test/console/'))) {
  const { launchChromiumServer } = await tsImport('../test/console/chromium.ts', import.meta.url);
  browser = await launchChromiumServer().catch((error) => console.warn(`no shared browser: ${error.message}`));
}

/**
 * How many test files run at once: LECTERN_TEST_CONCURRENCY, else one more than the cores. Files
 * side by side share nothing but the PostgreSQL server (each has its own temporary folders, ports,
 * databases and servers), and a file spends part of its time waiting on its servers, so one file
 * more than the cores keeps them busy. Two more (four on CI's 2 cores, 753 and 810 s on an earlier
 * machine) overloaded the slower machine CI has run on since: with the run on the Node LTS beside
 * it, a load of 17-28 for the whole run, each file's CPU 1.7 times what it takes alone, and servers
 * that did not start within a minute.
 */
const concurrency = Number(process.env.LECTERN_TEST_CONCURRENCY) || availableParallelism() + 1;

/**
 * A process still running after this long fails instead of holding the run (and CI) forever: a
 * test polling for a state that had already passed hung a CI run. The slowest file takes under two
 * minutes and a group of files (below) under five on a quiet machine; node --test bounds each of
 * its processes as a whole with it. 15 minutes cut two groups of three black-box files short at a
 * load of 25–35 (other work on the machine), so it is 25.
 */
const FILE_TIMEOUT_MS = 25 * 60_000;

/**
 * The black-box HTTP suite runs once more on PostgreSQL, two servers sharing each database with
 * requests alternating between them (test/helpers/server.ts), unless LECTERN_TEST_DATABASE already
 * chose one. Both databases' files wait in one queue: a separate PostgreSQL run beside the main one
 * finished on its own, a file at a time, after the main run's cores had gone idle.
 */
const onPostgresToo = postgresUrl && !process.env.LECTERN_TEST_DATABASE ? files.filter((file) => file.startsWith('test/http/')) : [];

/**
 * Test files share a process, a few of one folder at a time: a process costs 0.7–1 CPU-s before
 * its first test (Node, tsx, loading core and storage or the test helpers and the response
 * validators through tsx), more than most unit files' tests take. Measured at a load of 20–35:
 * core's 47 unit files, one process each, 52 CPU-s; in one process 6. A black-box file's servers
 * live in its describe blocks' hooks, so they end with its tests as before. Files go round-robin
 * into a folder's groups, so that the long files of one kind (the SIGKILL trials, say) do not all
 * land in one group. The trials that run alone (packaging, sea, test/postgres) keep a process each.
 */
const GROUP_SIZES = [
  [/^packages\/[^/]+\//, 8],
  [/^test\/core\//, 5],
  [/^test\/(http|cli|console)\//, 3],
];
function inGroups(list) {
  const byFolder = new Map();
  const alone = [];
  for (const file of list) {
    const folder = GROUP_SIZES.map(([pattern, size]) => [file.match(pattern)?.[0], size]).find(([matched]) => matched);
    if (!folder) alone.push([file]);
    else byFolder.set(folder[0], { size: folder[1], files: [...(byFolder.get(folder[0])?.files ?? []), file] });
  }
  const groups = [...byFolder.values()].flatMap(({ size, files: members }) => {
    const count = Math.ceil(members.length / size);
    return Array.from({ length: count }, (_, i) => members.filter((_, j) => j % count === i));
  });
  return [...alone, ...groups];
}
const labelFor = (members) => members.join(' + ');
const runs = [
  ...inGroups(files).map((members) => ({ files: members, label: labelFor(members) })),
  ...inGroups(onPostgresToo).map((members) => ({ files: members, label: `${labelFor(members)} (PostgreSQL)`, onPostgres: true })),
];

/**
 * Longest first, so that no long file starts near the end and runs there alone while the other
 * cores idle: the packaging and two-server trials, then the browser files, the black-box files
 * on both databases, the other test files, and the packages' unit tests (seconds each) last.
 */
const costRank = ({ files: [file] }) => {
  if (/^test\/(sea|packaging)\.test\.ts|^test\/postgres\//.test(file)) return 0;
  if (file.startsWith('test/console/')) return 1;
  if (file.startsWith('test/http/')) return 2;
  if (file.startsWith('test/')) return 3;
  return 4;
};
runs.sort((a, b) => costRank(a) - costRank(b) || a.label.localeCompare(b.label));

/**
 * node --test sorts the files it is given by path, so each run is handed to it as a module named
 * by its place in the queue, which imports the run's files in turn (setting LECTERN_TEST_DATABASE
 * first for a PostgreSQL run). A failure still names the test file and line.
 */
const queueDir = mkdtempSync(join(tmpdir(), 'lectern-test-queue-'));

/**
 * What a file cost in CPU, its own process and the servers and commands it started (reaped children
 * count in /proc/self/stat's cutime and cstime): with several files at once, wall time says more
 * about the neighbours than about the file. Written at the file's exit; Linux only, else nothing.
 * The four fields are in clock ticks, which /proc counts 100 a second (USER_HZ).
 */
const cpuFile = join(queueDir, 'cpu.tsv');
const recordCpu = (module) =>
  `import { appendFileSync as __append, readFileSync as __read } from 'node:fs';\n` +
  `process.once('exit', () => { try { const f = __read('/proc/self/stat', 'utf8').split(') ')[1].split(' ');` +
  ` const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(f[i]), 0);` +
  ` __append(${JSON.stringify(cpuFile)}, ticks * 10 + '\\t' + ${JSON.stringify(module)} + '\\n'); } catch {} });\n`;
const labels = new Map();
const queue = runs.map(({ files: members, label, onPostgres }, place) => {
  const module = join(
    queueDir,
    `${String(place).padStart(4, '0')}-${basename(members[0], '.test.ts')}${members.length > 1 ? '-and-more' : ''}${onPostgres ? '-on-postgres' : ''}.test.mjs`,
  );
  const setDatabase = onPostgres ? "process.env.LECTERN_TEST_DATABASE = 'postgres';\n" : '';
  const imports = members.map((file) => `await import(${JSON.stringify(pathToFileURL(join(root, file)).href)});\n`).join('');
  writeFileSync(module, `${setDatabase}${recordCpu(module)}${imports}`);
  labels.set(module, label);
  return module;
});

// Each file's time (scripts/file-times-reporter.mjs) lands here; the slowest are printed at the end.
const timesFile = join(mkdtempSync(join(tmpdir(), 'lectern-test-times-')), 'times.tsv');
const status = await new Promise((resolve) => {
  const child = spawn(
    process.execPath,
    [
      '--conditions=source',
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${concurrency}`,
      `--test-timeout=${FILE_TIMEOUT_MS}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${join(root, 'scripts/file-times-reporter.mjs')}`,
      `--test-reporter-destination=${timesFile}`,
      ...queue,
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        LECTERN_TEST: '1',
        ...(postgres ? { LECTERN_TEST_POSTGRES_URL: postgres.url } : {}),
        ...fixtures.env,
        ...(browser ? { LECTERN_TEST_BROWSER_WS: browser.wsEndpoint() } : {}),
      },
    },
  );
  child.once('close', (code) => resolve(code ?? 1));
});

/** A tab-separated file the queued files appended to, as rows of fields; none when no file wrote it. */
const tsvRows = (file) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('\t'))
    : [];
const labelOf = (file) => labels.get(file) ?? relative(root, file);

// where the run's time went: wall time per file, start-up of its process and servers included
const fileTimes = tsvRows(timesFile).map(([ms, outcome, file]) => ({ ms: Number(ms), failed: outcome === 'failed', file: labelOf(file) }));
// a black-box file's failure names its source file and line either way: this says which database
const failed = fileTimes.filter((time) => time.failed);
if (failed.length > 0) console.log(`\n# files that failed\n${failed.map(({ file }) => `# ${file}`).join('\n')}`);
const slowest = fileTimes.sort((a, b) => b.ms - a.ms).slice(0, 10);
console.log(`\n# the ten slowest of ${fileTimes.length} files (wall time each, ${concurrency} at a time)`);
for (const { ms, file } of slowest) console.log(`# ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
const cpuTimes = tsvRows(cpuFile).map(([ms, file]) => ({ ms: Number(ms), file: labelOf(file) }));
// every file's wall and CPU time, for looking further than the ten printed (LECTERN_TEST_TIMES names
// another file, for a second run after this one)
{
  const cpuOf = new Map(cpuTimes.map(({ ms, file }) => [file, ms]));
  const timesTable = join(root, process.env.LECTERN_TEST_TIMES ?? 'test-results/file-times.tsv');
  mkdirSync(dirname(timesTable), { recursive: true });
  writeFileSync(
    timesTable,
    ['wall_ms\tcpu_ms\tfile', ...fileTimes.map(({ ms, file }) => `${ms}\t${cpuOf.get(file) ?? ''}\t${file}`)].join('\n') + '\n',
  );
}
if (cpuTimes.length > 0) {
  const total = cpuTimes.reduce((sum, { ms }) => sum + ms, 0);
  console.log(`\n# the ten costliest files in CPU (their servers and commands included; all files: ${(total / 1000).toFixed(0)} s)`);
  for (const { ms, file } of cpuTimes.sort((a, b) => b.ms - a.ms).slice(0, 10))
    console.log(`# ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
}
rmSync(dirname(timesFile), { recursive: true, force: true });
rmSync(queueDir, { recursive: true, force: true });
await fixtures.cleanup();
await browser?.close();
if (postgres) {
  spawnSync('bash', [join(root, 'scripts/postgres.sh'), 'stop', postgres.dir]);
  rmSync(postgres.dir, { recursive: true, force: true });
}
process.exit(status);
