/** Each package declares exactly the packages its sources use: nothing missing for an installer, nothing unused. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';

const repoRoot = new URL('../', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** `zod`, `@lectern/core` from `zod/v4`, `@lectern/core/ports`; built-ins and relative paths are not packages. */
const packageOf = (specifier: string) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;

for (const name of ['core', 'storage', 'http', 'cli']) {
  it(`@lectern/${name} lists exactly the packages its sources import`, () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'packages', name, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    const used = new Set<string>();
    for (const file of sources(join(repoRoot, 'packages', name, 'src'))) {
      const text = readFileSync(file, 'utf8');
      // import/export statements, dynamic imports, and files resolved from a package at run time (resolve(`pkg/file`))
      const statements =
        /^\s*(?:import|export)\b[^;]*?\bfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(['"]([^'"]+)['"]\)|\bresolve\([`'"]([^`'"$]+)/gm;
      for (const match of text.matchAll(statements)) {
        const specifier = match.slice(1).find((group) => group !== undefined);
        if (!specifier || specifier.startsWith('.') || specifier.startsWith('node:')) continue;
        used.add(packageOf(specifier));
      }
    }
    // `@types/x` beside `x` ships the declarations the package's own .d.ts files import (better-sqlite3's),
    // so an embedder's tsc finds them; an optional peer (`pg`) is imported only when used
    const declared = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})];
    const typings = declared.filter((dependency) => dependency.startsWith('@types/'));
    for (const typing of typings) assert.ok(used.has(typing.slice('@types/'.length)), `${typing} without its package`);
    assert.deepEqual([...used].sort(), declared.filter((dependency) => !typings.includes(dependency)).sort());
  });
}
