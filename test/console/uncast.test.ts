/**
 * The console talks to the API only through the client generated from the OpenAPI document, and
 * never casts it away: a cast through `unknown` or `never` would let a changed route compile while
 * the page breaks. The typecheck proves the rest; this test keeps the casts from coming back.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../helpers/server.ts';

const consoleSource = join(repoRoot, 'packages/console/src');
// written by build.mjs from the document, not by hand
const generated = new Set(['api/schema.d.ts', 'api/schema-values.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const name = relative(consoleSource, path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') && !generated.has(name) ? [path] : [];
  });
}

describe('console source', () => {
  const files = sourceFiles(consoleSource).map((path) => ({ path: relative(repoRoot, path), text: readFileSync(path, 'utf8') }));

  it('reads the console source', () => assert.ok(files.length > 40, `only ${files.length} files`));

  it('casts nothing through unknown or never', () => {
    const casts = files.flatMap(({ path, text }) =>
      text.split('\n').flatMap((line, index) => (/\bas\s+(unknown|never)\b/.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
    );
    assert.deepEqual(casts, []);
  });
});
