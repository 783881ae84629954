/** Documentation generated from code stays in step with it. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
