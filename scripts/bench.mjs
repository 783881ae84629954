// npm run bench [-- name ...] [-- --db postgres://user@host:port/db]: runs scripts/bench/<name>.ts
// (all of them by default) on a temporary SQLite file; with --db, on SQLite and then on a fresh
// database on that PostgreSQL server, and prints each benchmark's figures side by side. Last comes
// one table of every figure that has a target: target, measured on SQLite, pass or fail.
// Benchmarks print numbers; they never fail a build. Machines are shared: compare ratios within a run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const { values: flags, positionals } = parseArgs({ options: { db: { type: 'string' } }, allowPositionals: true });
if (flags.db !== undefined && !/^postgres(ql)?:\/\//.test(flags.db)) {
  console.error('--db takes a PostgreSQL server URL (postgres://…); SQLite runs always');
  process.exit(2);
}
const available = readdirSync(join(root, 'scripts/bench'))
  .filter((file) => file.endsWith('.ts') && !file.startsWith('_'))
  .map((file) => file.slice(0, -3))
  .sort();
const wanted = positionals.length > 0 ? positionals : available;
for (const name of wanted) {
  if (!available.includes(name)) {
    console.error(`unknown benchmark '${name}'; available: ${available.join(', ')}`);
    process.exit(2);
  }
}
spawnSync(process.execPath, [join(root, 'build.mjs')], { stdio: 'inherit' });

const results = mkdtempSync(join(tmpdir(), 'lectern-bench-results-'));
const databases = [{ name: 'SQLite', env: {} }, ...(flags.db ? [{ name: 'PostgreSQL', env: { LECTERN_BENCH_POSTGRES: flags.db } }] : [])];

/** The figures a run reported, in order (scripts/bench/_report.ts). */
const figuresOf = (file) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];

const show = (figure) =>
  figure ? `${Number.isInteger(figure.value) ? figure.value : figure.value.toFixed(2)} ${figure.unit}`.trim() : '—';

/** Every figure with a target, from the SQLite runs, with PostgreSQL's beside it when it ran. */
const targeted = [];
const targetText = (target) => ('below' in target ? `< ${target.below}` : 'atLeast' in target ? `≥ ${target.atLeast}` : 'reported');
const verdict = (figure) =>
  'below' in figure.target
    ? figure.value < figure.target.below
      ? 'pass'
      : 'FAIL'
    : 'atLeast' in figure.target
      ? figure.value >= figure.target.atLeast
        ? 'pass'
        : 'FAIL'
      : '';

for (const name of wanted) {
  const runs = databases.map((database) => {
    console.log(`\n## ${name} on ${database.name}`);
    const file = join(results, `${name}-${database.name}.jsonl`);
    const { status } = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', join(root, 'scripts/bench', `${name}.ts`)], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...database.env, LECTERN_BENCH_RESULTS: file },
    });
    if (status !== 0) console.log(`(${name} on ${database.name} exited with ${status})`);
    return figuresOf(file);
  });
  for (const figure of runs[0].filter((entry) => entry.target)) {
    targeted.push({ name, figure, postgres: runs[1]?.find((entry) => entry.figure === figure.figure) });
  }
  if (databases.length < 2) continue;
  console.log(`\n### ${name}: SQLite and PostgreSQL\n`);
  console.log('| figure | SQLite | PostgreSQL |\n|---|---:|---:|');
  const names = [...new Set(runs.flatMap((figures) => figures.map((figure) => figure.figure)))];
  for (const figure of names) {
    const [sqlite, postgres] = runs.map((figures) => figures.find((entry) => entry.figure === figure));
    console.log(`| ${figure} | ${show(sqlite)} | ${show(postgres)} |`);
  }
}
if (targeted.length > 0) {
  console.log('\n## Targets (on SQLite)\n');
  console.log(`| benchmark | figure | target | measured | |${databases.length > 1 ? ' PostgreSQL |' : ''}`);
  console.log(`|---|---|---:|---:|---|${databases.length > 1 ? '---:|' : ''}`);
  for (const { name, figure, postgres } of targeted) {
    const unit = figure.unit ? ` ${figure.unit}` : '';
    const columns = [name, figure.figure, `${targetText(figure.target)}${unit}`, show(figure), verdict(figure)];
    if (databases.length > 1) columns.push(show(postgres));
    console.log(`| ${columns.join(' | ')} |`);
  }
  const failed = targeted.filter(({ figure }) => verdict(figure) === 'FAIL').length;
  const checked = targeted.filter(({ figure }) => verdict(figure) !== '').length;
  console.log(`\n${checked - failed} of ${checked} targets met`);
}
rmSync(results, { recursive: true, force: true });
