/** Documentation generated from code stays in step with it. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { it } from 'node:test';
import { envOf, flagOf } from '../packages/cli/src/settings.ts';
import { serveSettings } from '../packages/cli/src/serve-settings.ts';
import { configurationSection } from '../scripts/docs-configuration.ts';
import { withSection } from '../scripts/generated-section.ts';
import { DOC_PATH, renderFieldTables, withFieldTables } from '../scripts/docs-rql-fields.ts';

it('docs/rql.md lists the report fields the catalogues define', () => {
  const doc = readFileSync(DOC_PATH, 'utf8');
  assert.equal(doc, withFieldTables(doc, renderFieldTables()), 'run: node --conditions=source --import tsx scripts/docs-rql-fields.ts');
});

it('docs/configuration.md lists every setting of lectern serve, as declared', () => {
  const doc = readFileSync(configurationSection.docPath, 'utf8');
  for (const key of Object.keys(serveSettings)) {
    assert.match(doc, new RegExp(`\\| \`${key}\` \\| \`${flagOf(key)}[ \`]`), `${key} is missing from docs/configuration.md`);
    assert.ok(doc.includes(`\`${envOf(key)}\``), `${envOf(key)} is missing from docs/configuration.md`);
  }
  assert.equal(doc, withSection(configurationSection, doc), 'run: node --conditions=source --import tsx scripts/docs-configuration.ts');
});

it('the code and docs cite only what the repository holds: no note outside it, and every link between the docs resolves', () => {
  const repoRoot = new URL('../', import.meta.url).pathname;
  const tracked = execFileSync('git', ['ls-files'], { cwd: repoRoot, encoding: 'utf8' })
    .split('\n')
    .filter((file) => /\.(ts|mjs|md)$/.test(file) && file !== 'test/docs.test.ts');
  const outside = /decisions(\.md)? ?§|decisions\.md|shared\/spec|shared\/notes/;
  for (const file of tracked) {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    const line = text.split('\n').findIndex((l) => outside.test(l));
    assert.equal(line, -1, `${file}:${line + 1} cites a file outside the repository; point at docs/ instead`);
  }
  const anchorOf = (heading: string) =>
    heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
  for (const file of tracked.filter((f) => f === 'README.md' || f.startsWith('docs/'))) {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!) || target!.startsWith('#')) continue;
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const resolved = join(dirname(join(repoRoot, file)), path);
      assert.ok(existsSync(resolved), `${file} links to ${target}, which does not exist`);
      if (anchor && resolved.endsWith('.md')) {
        const anchors = readFileSync(resolved, 'utf8')
          .split('\n')
          .filter((l) => /^#{1,6} /.test(l))
          .map((l) => anchorOf(l.replace(/^#+ /, '')));
        assert.ok(anchors.includes(anchor), `${file} links to ${target}: no such heading`);
      }
    }
  }
});
