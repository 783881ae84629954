/** Documentation generated from code stays in step with it. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { DOC_PATH, renderFieldTables, withFieldTables } from '../scripts/docs-rql-fields.ts';

it('docs/rql.md lists the report fields the catalogues define', () => {
  const doc = readFileSync(DOC_PATH, 'utf8');
  assert.equal(doc, withFieldTables(doc, renderFieldTables()), 'run: node --conditions=source --import tsx scripts/docs-rql-fields.ts');
});
