// Runs every *.test.ts under packages/ and test/ with node:test (Node 20 does not expand globs).
// Usage: node scripts/run-tests.mjs [path-substring ...] to run a subset; `!substring` leaves files out.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { makeMigratedTemplates } from './migrated-templates.mjs';

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
const templates = startsServers
  ? await makeMigratedTemplates(root, serversOnPostgres ? postgresUrl : undefined)
  : { env: {}, cleanup: async () => undefined };

// One Chromium for the run's browser tests, each file connecting to it (test/console/chromium.ts):
// a browser's start-up, paid once instead of once per file. Without it each file starts its own.
let browser;
if (files.some((file) => file.startsWith('test/console/'))) {
  const { launchChromiumServer } = await tsImport('../test/console/chromium.ts', import.meta.url);
  browser = await launchChromiumServer().catch((error) => console.warn(`no shared browser: ${error.message}`));
}

/**
 * How many test files run at once: LECTERN_TEST_CONCURRENCY, else one per core. Above one, the
 * black-box suite's PostgreSQL run also runs beside the main run, with half as many. Files side by
 * side share nothing but the PostgreSQL server (each has its own temporary folders, ports,
 * databases and servers). On 2 cores one at a time left a core idle while a file waited on its
 * servers: a fresh-clone CI run took 1 036 s for the two runs one file at a time (about 850 s
 * without the SMTP sink's old 30 s closes), and 590 s two at a time with the PostgreSQL run beside.
 * Four at a time was no faster. Whole runs passed two and four at a time under loads of 5 to 15.
 */
const concurrency = Number(process.env.LECTERN_TEST_CONCURRENCY) || availableParallelism();

/**
 * A file still running after this long fails instead of holding the run (and CI) forever: a test
 * polling for a state that had already passed hung a CI run. The slowest file takes under two
 * minutes; node --test bounds each file as a whole with it.
 */
const FILE_TIMEOUT_MS = 15 * 60_000;

// Each pass's file times (scripts/file-times-reporter.mjs) land here; the slowest are printed at the end.
const timesDir = mkdtempSync(join(tmpdir(), 'lectern-test-times-'));
const fileTimes = [];
let passes = 0;

/** Runs `node --test` over the files; output goes to the terminal, or is collected when `collect` is set. */
const run = (testFiles, env, { collect = false, jobs = concurrency, label = '' } = {}) =>
  new Promise((resolve) => {
    const timesFile = join(timesDir, `pass-${passes++}.tsv`);
    const reporters = ['--test-reporter=spec', '--test-reporter-destination=stdout'];
    reporters.push(`--test-reporter=${join(root, 'scripts/file-times-reporter.mjs')}`, `--test-reporter-destination=${timesFile}`);
    const child = spawn(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        '--test',
        `--test-concurrency=${jobs}`,
        `--test-timeout=${FILE_TIMEOUT_MS}`,
        ...reporters,
        ...testFiles,
      ],
      {
        cwd: root,
        stdio: collect ? ['ignore', 'pipe', 'pipe'] : 'inherit',
        env: {
          ...process.env,
          LECTERN_TEST: '1',
          ...(postgres ? { LECTERN_TEST_POSTGRES_URL: postgres.url } : {}),
          ...templates.env,
          ...(browser ? { LECTERN_TEST_BROWSER_WS: browser.wsEndpoint() } : {}),
          ...env,
        },
      },
    );
    const output = [];
    if (collect) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => output.push(chunk));
    child.once('close', (code) => {
      if (existsSync(timesFile))
        for (const line of readFileSync(timesFile, 'utf8').split('\n').filter(Boolean)) {
          const [ms, file] = line.split('\t');
          fileTimes.push({ ms: Number(ms), file: relative(root, file) + label });
        }
      resolve({ status: code ?? 1, output: Buffer.concat(output) });
    });
  });

// The black-box HTTP suite once more on PostgreSQL, two servers sharing each database with requests
// alternating between them (test/helpers/server.ts), unless LECTERN_TEST_DATABASE already chose one.
// It runs beside the main run (its own PostgreSQL databases, its own servers) with half as many
// files at once, and its report follows the main run's.
const blackBox = files.filter((file) => file.startsWith('test/http/'));
const wantSecond = postgresUrl && !process.env.LECTERN_TEST_DATABASE && blackBox.length > 0;
const secondRun = (options) => run(blackBox, { LECTERN_TEST_DATABASE: 'postgres' }, { ...options, label: ' (PostgreSQL)' });
const beside = wantSecond && concurrency > 1 ? secondRun({ collect: true, jobs: Math.max(1, Math.floor(concurrency / 2)) }) : undefined;
let { status } = await run(files, {});
if (wantSecond) {
  console.log('\n# the black-box HTTP suite on PostgreSQL, two servers per database\n');
  const second = beside ? await beside : await secondRun({});
  process.stdout.write(second.output);
  status = Math.max(status, second.status);
}
// where the run's time went: wall time per file, start-up of its process and servers included
const slowest = fileTimes.sort((a, b) => b.ms - a.ms).slice(0, 10);
console.log(`\n# the ten slowest of ${fileTimes.length} files (wall time each, ${concurrency} at a time)`);
for (const { ms, file } of slowest) console.log(`# ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
rmSync(timesDir, { recursive: true, force: true });
await templates.cleanup();
await browser?.close();
if (postgres) {
  spawnSync('bash', [join(root, 'scripts/postgres.sh'), 'stop', postgres.dir]);
  rmSync(postgres.dir, { recursive: true, force: true });
}
process.exit(status);
