/**
 * Habits the suite keeps (docs/development.md, "Tests"): no test waits on the wall clock for
 * longer than 100 ms (poll for the outcome, or drive the injected clock), and a describe block
 * that needs a server says `useServer()` instead of repeating the start and stop hooks.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './helpers/server.ts';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') || path.includes('/test/helpers/') ? [path] : [];
  });
}

const files = [...testFiles(join(repoRoot, 'test')), ...testFiles(join(repoRoot, 'packages'))].map((path) => ({
  path: relative(repoRoot, path),
  text: readFileSync(path, 'utf8'),
}));

describe('test hygiene', () => {
  it('reads the test files', () => assert.ok(files.length > 50));

  it('waits at most 100 ms on the wall clock at a time', () => {
    const long = files.flatMap(({ path, text }) =>
      [...text.matchAll(/(?:setTimeout\(\s*\w+\s*,|sleep\()\s*([\d_]+)\s*\)/g)]
        .filter((match) => Number(match[1]!.replaceAll('_', '')) > 100)
        .map((match) => `${path}: ${match[0]}`),
    );
    assert.deepEqual(long, []);
  });

  it('starts the server of a describe block with useServer()', () => {
    const repeated = files
      .filter(
        ({ path, text }) => path !== 'test/helpers/server.ts' && /before\(async \(\) => \{\s*\n\s*server = await startServer\(/.test(text),
      )
      .map(({ path }) => path);
    assert.deepEqual(repeated, []);
  });
});
