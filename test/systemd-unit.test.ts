/**
 * packaging/lectern.service: systemd itself checks the unit (`systemd-analyze verify`) and scores its
 * sandbox (`systemd-analyze security`). The unit names /usr/local/bin/lectern, which systemd wants
 * to exist, so the check runs on a copy pointing at a stand-in executable; every other line is
 * checked as shipped.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, tempDir } from './helpers/server.ts';

const unit = readFileSync(join(repoRoot, 'packaging/lectern.service'), 'utf8');
const analyzer = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
const skip = analyzer.error ? 'systemd-analyze is not installed (.ci/run installs it)' : false;

/** The unit as shipped, but for the executable's path, written to a temporary folder. */
function checkable(text: string): string {
  const dir = tempDir();
  const executable = join(dir, 'lectern');
  copyFileSync('/bin/true', executable);
  const file = join(dir, 'lectern.service');
  writeFileSync(file, text.replaceAll('/usr/local/bin/lectern', executable));
  return file;
}

const analyze = (...args: string[]) => spawnSync('systemd-analyze', args, { encoding: 'utf8' });

describe('the systemd unit', () => {
  it('runs the executable as a throwaway user with its state in StateDirectory', () => {
    assert.match(unit, /^ExecStart=\/usr\/local\/bin\/lectern serve --db \$\{STATE_DIRECTORY\}\/lectern\.db$/m);
    for (const line of ['DynamicUser=yes', 'StateDirectory=lectern', 'ProtectSystem=strict', 'NoNewPrivileges=yes', 'ProtectHome=yes']) {
      assert.ok(unit.split('\n').includes(line), line);
    }
  });

  it('passes systemd-analyze verify, which fails a broken unit', { skip }, () => {
    const verified = analyze('verify', checkable(unit));
    assert.equal(verified.status, 0, verified.stderr);
    assert.equal(verified.stderr, '', 'no warning either');
    const broken = analyze('verify', checkable(unit.replace('Restart=on-failure', 'Restart=on-failure\nExecStartPre=relative/path')));
    assert.notEqual(broken.status, 0, 'a relative ExecStartPre path is refused');
  });

  it('has a sandbox systemd rates OK (exposure under 2 of 10)', { skip }, () => {
    const rated = analyze('security', '--offline=yes', checkable(unit));
    assert.equal(rated.status, 0, rated.stderr);
    const exposure = /Overall exposure level for lectern\.service: ([\d.]+)/.exec(rated.stdout);
    assert.ok(exposure, rated.stdout);
    assert.ok(Number(exposure[1]) < 2, `exposure ${exposure[1]}`);
  });
});
