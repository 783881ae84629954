// Builds the publishable packages and the `lectern` command.
//   node build.mjs         packages/{core,storage,http}/dist (ESM + .d.ts, incremental) and
//                          dist/lectern.cjs, the bundle `npx lectern` and the tests run
//   node build.mjs --sea   also dist/lectern, a single executable with Node and SQLite inside: the
//                          newest Node LTS from the npm registry (scripts/node-lts.mjs), whatever Node
//                          runs this build
//   node build.mjs --sea-only   only dist/lectern, from the console build already in
//                          packages/console/dist: the tests' way (npm test built the rest, and
//                          rewriting it would pull it from under the test files running beside)
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ltsRuntime } from './scripts/node-lts.mjs';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const entry = join(root, 'packages/cli/src/main.ts');

const common = {
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  // SEA runs CommonJS only; one format for both keeps the two builds identical in behaviour
  format: 'cjs',
  target: 'node20',
  // workspace packages resolve to their TypeScript sources
  conditions: ['source'],
  sourcemap: 'linked',
  logLevel: 'warning',
  // the libraries are ES modules that resolve their own files with import.meta.url; CommonJS has
  // __filename instead
  define: { 'import.meta.url': '__importMetaUrl' },
  banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};

const seaOnly = process.argv.includes('--sea-only');

if (!seaOnly) {
  // The libraries: tsc -b follows the project references (core → storage → http) and skips
  // whatever is up to date.
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', join(root, 'packages/http/tsconfig.build.json')], {
    stdio: 'inherit',
  });
  for (const name of ['core', 'storage', 'http']) pointDeclarationsAtJs(join(root, 'packages', name, 'dist'));

  // The web console (packages/console): its own build writes packages/console/dist, which the server
  // serves under /console/ and the single executable carries as assets (consoleAssets below).
  execFileSync(process.execPath, [join(root, 'packages/console/build.mjs')], { stdio: 'inherit' });

  mkdirSync(dist, { recursive: true });
  await build({ ...common, outfile: join(dist, 'lectern.cjs'), external: ['better-sqlite3'] });
}

// tsc rewrites `.ts` specifiers to `.js` in the JavaScript it emits but not in declarations;
// consumers with a stricter tsconfig (skipLibCheck off) would reject `.ts` specifiers there.
function pointDeclarationsAtJs(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, 'utf8');
    const rewritten = text.replace(/((?:from |import\()['"]\.{1,2}\/[^'"]*)\.ts(['"])/g, '$1.js$2');
    if (rewritten !== text) writeFileSync(file, rewritten);
  }
}

/** The console's files as executable assets named `console/<file>`, with the manifest that lists them. */
function consoleAssets() {
  const folder = join(root, 'packages/console/dist');
  const { files } = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8'));
  return Object.fromEntries(['manifest.json', ...files].map((name) => [`console/${name}`, join(folder, name)]));
}

if (seaOnly || process.argv.includes('--sea')) {
  const seaDir = join(dist, 'sea');
  mkdirSync(seaDir, { recursive: true });
  // the executable is that Node's binary, its blob made by that Node, with the addon built for it
  const runtime = ltsRuntime();
  writeFileSync(join(seaDir, 'runtime.json'), JSON.stringify(runtime));
  const bundle = join(seaDir, 'lectern-sea.cjs');
  // better-sqlite3's JavaScript is bundled too; its addon travels as an asset (packages/cli/src/sea-native.ts)
  await build({ ...common, outfile: bundle, sourcemap: false });
  const blob = join(seaDir, 'lectern.blob');
  const config = join(seaDir, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify({
      main: bundle,
      output: blob,
      disableExperimentalSEAWarning: true,
      // V8 compiles the 3.5 MB bundle at build time, not at every start (start-up 40 ms faster);
      // such a main script has no dynamic import(), so packages/cli/src/sea.ts uses require
      useCodeCache: true,
      assets: {
        'better_sqlite3.node': runtime.addon,
        // the API reference page's viewer (packages/cli/src/sea-assets.ts)
        'swagger-ui-bundle.js': join(root, 'node_modules/swagger-ui-dist/swagger-ui-bundle.js'),
        'swagger-ui.css': join(root, 'node_modules/swagger-ui-dist/swagger-ui.css'),
        // the web console, served under /console/ (packages/cli/src/sea-assets.ts)
        ...consoleAssets(),
      },
    }),
  );
  execFileSync(runtime.node, ['--experimental-sea-config', config], { stdio: 'inherit' });
  const executable = join(dist, 'lectern');
  copyFileSync(runtime.node, executable);
  try {
    execFileSync('strip', ['--strip-all', executable]);
  } catch {
    // strip is optional: the executable is only larger without it
  }
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules/postject/dist/cli.js'),
      executable,
      'NODE_SEA_BLOB',
      blob,
      '--sentinel-fuse',
      'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  console.log(`built ${executable} (node ${runtime.version})`);
}
