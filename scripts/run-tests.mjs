// Runs every *.test.ts under packages/ and test/ with node:test (Node 20 does not expand globs).
// Usage: node scripts/run-tests.mjs [path-substring ...] to run a subset; `!substring` leaves files out.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

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

const run = (testFiles, env) =>
  spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '--test', '--test-reporter=spec', ...testFiles], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, LECTERN_TEST: '1', ...(postgres ? { LECTERN_TEST_POSTGRES_URL: postgres.url } : {}), ...env },
  }).status ?? 1;

let status = run(files, {});
// The black-box HTTP suite once more on PostgreSQL, two servers sharing each database with requests
// alternating between them (test/helpers/server.ts), unless LECTERN_TEST_DATABASE already chose one
const blackBox = files.filter((file) => file.startsWith('test/http/'));
if ((postgres || process.env.LECTERN_TEST_POSTGRES_URL) && !process.env.LECTERN_TEST_DATABASE && blackBox.length > 0) {
  console.log('\n# the black-box HTTP suite on PostgreSQL, two servers per database\n');
  status = Math.max(status, run(blackBox, { LECTERN_TEST_DATABASE: 'postgres' }));
}
if (postgres) {
  spawnSync('bash', [join(root, 'scripts/postgres.sh'), 'stop', postgres.dir]);
  rmSync(postgres.dir, { recursive: true, force: true });
}
process.exit(status);
