// npm run bench [-- name ...]: runs scripts/bench/<name>.ts (all of them by default).
// Benchmarks print numbers; they never fail a build. Machines are shared: compare ratios within a run.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const available = readdirSync(join(root, 'scripts/bench'))
  .filter((file) => file.endsWith('.ts') && !file.startsWith('_'))
  .map((file) => file.slice(0, -3))
  .sort();
const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : available;
spawnSync(process.execPath, [join(root, 'build.mjs')], { stdio: 'inherit' });
for (const name of wanted) {
  if (!available.includes(name)) {
    console.error(`unknown benchmark '${name}'; available: ${available.join(', ')}`);
    process.exit(2);
  }
  console.log(`\n## ${name}`);
  spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', join(root, 'scripts/bench', `${name}.ts`)], {
    cwd: root,
    stdio: 'inherit',
  });
}
