/**
 * The console talks to the API only through the client generated from the OpenAPI document, and
 * never casts it away: a cast through `unknown` or `never` would let a changed route compile while
 * the page breaks, and a cast to a shape written inline (`row as { public_id?: unknown }`) claims a
 * field the document never promised. The typecheck proves the rest; this test keeps such casts
 * from coming back. It reads the syntax tree, so a cast split over lines or in a comment's
 * neighbourhood is judged by what it is, not by how it is spelt.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
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

/** `path:line: text` of every cast to `unknown`, `never` or an inline object type in a source file. */
function forbiddenCasts(path: string, text: string): string[] {
  const source = ts.createSourceFile(
    path,
    text,
    ts.ScriptTarget.Latest,
    true,
    path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && forbidden(node.type)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${path}:${line + 1}: ${node.getText(source).replace(/\s+/g, ' ')}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const forbidden = (type: ts.TypeNode): boolean =>
  type.kind === ts.SyntaxKind.UnknownKeyword ||
  type.kind === ts.SyntaxKind.NeverKeyword ||
  ts.isTypeLiteralNode(type) ||
  // `{ total?: number } | undefined` is the same claim
  ((ts.isUnionTypeNode(type) || ts.isIntersectionTypeNode(type)) && type.types.some(forbidden)) ||
  (ts.isParenthesizedTypeNode(type) && forbidden(type.type));

describe('console source', () => {
  const files = sourceFiles(consoleSource).map((path) => ({ path: relative(repoRoot, path), text: readFileSync(path, 'utf8') }));

  it('reads the console source', () => assert.ok(files.length > 40, `only ${files.length} files`));

  it('casts nothing through unknown or never, nor to a shape written inline', () => {
    const casts = files.flatMap(({ path, text }) => forbiddenCasts(path, text));
    assert.deepEqual(casts, []);
  });

  it('tells such casts apart from the ones it allows', () => {
    const sample = [
      'const a = x as unknown as Y;',
      'const b = <never>x;',
      'const c = (row as {\n  public_id?: unknown;\n}).public_id;',
      'const d = [1] as const;',
      'const e = x as Record<string, unknown>;',
      'const f = y as ({ total?: number }) | undefined;',
    ].join('\n');
    assert.deepEqual(
      forbiddenCasts('sample.ts', sample).map((found) => found.split(': ')[0]),
      ['sample.ts:1', 'sample.ts:2', 'sample.ts:3', 'sample.ts:8'],
    );
  });
});
