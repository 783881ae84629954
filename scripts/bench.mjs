// npm run bench [-- name ...] [-- --db postgres://user@host:port/db]: runs scripts/bench/<name>.ts
// (all of them by default) on a temporary SQLite file; with --db, on SQLite and then on a fresh
// database on that PostgreSQL server, and prints each benchmark's figures side by side.
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
  if (databases.length < 2) continue;
  console.log(`\n### ${name}: SQLite and PostgreSQL\n`);
  console.log('| figure | SQLite | PostgreSQL |\n|---|---:|---:|');
  const names = [...new Set(runs.flatMap((figures) => figures.map((figure) => figure.figure)))];
  for (const figure of names) {
    const [sqlite, postgres] = runs.map((figures) => figures.find((entry) => entry.figure === figure));
    console.log(`| ${figure} | ${show(sqlite)} | ${show(postgres)} |`);
  }
}
rmSync(results, { recursive: true, force: true });
