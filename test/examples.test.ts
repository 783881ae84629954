import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './helpers/server.ts';

describe('examples', () => {
  it('embed-core.ts uses the core without HTTP', () => {
    const result = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', join(repoRoot, 'examples/embed-core.ts')], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    assert.equal(result.status, 0, result.stderr);
    const output = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    assert.deepEqual(output.group, { name: 'Pioneers', member_count: 2 });
    assert.deepEqual(output.reports, ['Alan Turing']);
    assert.equal(output.total, 1);
    assert.match(output.refusal, /^forbidden: /);
    assert.deepEqual(output.invalid, { email: ['A user with this email already exists.'] });
  });
});
