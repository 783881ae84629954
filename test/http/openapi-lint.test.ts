/**
 * The served OpenAPI document passes `redocly lint` with the repository's redocly.yaml: no error,
 * no warning (a rule the document cannot satisfy is turned off there, with the reason).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { repoRoot, useServer } from '../helpers/server.ts';

describe('the OpenAPI document under redocly lint', { timeout: 120_000 }, () => {
  const server = useServer();
  const dir = mkdtempSync(join(tmpdir(), 'lectern-openapi-lint-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('has no error and no warning', async () => {
    const response = await server.api.get('/api/v2/openapi.json', { token: null });
    assert.equal(response.status, 200);
    const file = join(dir, 'openapi.json');
    writeFileSync(file, response.text);
    const linted = spawnSync(
      join(repoRoot, 'node_modules/.bin/redocly'),
      ['lint', '--config', join(repoRoot, 'redocly.yaml'), '--format=json', '--max-problems=50', file],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(linted.stdout) as {
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
    };
    const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`).join('\n');
    assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 }, problems);
    assert.equal(linted.status, 0, linted.stderr);
  });
});
