/**
 * The libraries as a stranger gets them: `npm pack` each, install the tarballs in an empty project
 * outside the repository, then run plain JavaScript with plain `node`, and type-check, compile and
 * run examples/embed-core.ts and every ```ts block of README.md and docs/*.md under the defaults
 * of `tsc --init`. No tsx, no `source` condition, no symlinks.
 *
 * Keeping it fast and offline-safe: dependencies come from npm's cache (`--prefer-offline`; the
 * repository's own install put every tarball there), and install scripts are skipped so
 * better-sqlite3 is not compiled again (~2 minutes here). In their place the test copies in the
 * addon the repository's install already compiled for this same Node and the same better-sqlite3
 * version, which is what a prebuilt-binary download would provide.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { before, describe, it } from 'node:test';
import { repoRoot, tempDir } from './helpers/server.ts';

const libraries = ['core', 'storage', 'http'];
const npm = (cwd: string, args: string[]) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
const versionOf = (packageDir: string) => JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version as string;
const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');

/**
 * The ```ts blocks of README.md and docs/*.md, but those marked ```ts no-run (docs/development.md,
 * "Docs run"), each named after its file and line.
 */
function runnableBlocks(): { name: string; code: string }[] {
  const docs = [
    'README.md',
    ...readdirSync(join(repoRoot, 'docs'))
      .filter((file) => file.endsWith('.md'))
      .map((file) => `docs/${file}`),
  ];
  return docs.flatMap((doc) => {
    const lines = readFileSync(join(repoRoot, doc), 'utf8').split('\n');
    const blocks: { name: string; code: string }[] = [];
    for (let start = 0; start < lines.length; start++) {
      const fence = /^```(\S*)(.*)$/.exec(lines[start]!);
      if (!fence) continue;
      const end = lines.findIndex((line, index) => index > start && line.startsWith('```'));
      if (fence[1] === 'ts' && fence[2]!.trim() !== 'no-run') {
        const name = `${basename(doc, '.md').toLowerCase()}-line-${start + 1}`;
        blocks.push({ name, code: lines.slice(start + 1, end).join('\n') });
      }
      start = end;
    }
    return blocks;
  });
}

describe('packed packages in an empty project', { timeout: 240_000 }, () => {
  let project: string;
  let tarballs: string[];

  before(() => {
    const packed = tempDir();
    npm(repoRoot, ['pack', ...libraries.flatMap((name) => ['-w', `packages/${name}`]), '--pack-destination', packed, '--ignore-scripts']);
    tarballs = readdirSync(packed).map((file) => join(packed, file));
    project = tempDir();
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'embedder', private: true, type: 'module' }));
    npm(project, ['install', '--prefer-offline', '--ignore-scripts', ...tarballs]);
    const ours = join(repoRoot, 'node_modules/better-sqlite3');
    const theirs = join(project, 'node_modules/better-sqlite3');
    assert.equal(versionOf(theirs), versionOf(ours), 'the copied addon must come from the same better-sqlite3 version');
    mkdirSync(join(theirs, 'build/Release'), { recursive: true });
    copyFileSync(join(ours, 'build/Release/better_sqlite3.node'), join(theirs, 'build/Release/better_sqlite3.node'));
    execFileSync(process.execPath, [tsc, '--init'], { cwd: project, stdio: 'ignore' });
  });

  it('each tarball holds JavaScript, declarations and the MIT licence, and no sources or tests', () => {
    for (const tarball of tarballs) {
      const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
      assert.ok(files.includes('package/dist/index.js'), `${tarball} lacks dist/index.js`);
      assert.ok(files.includes('package/dist/index.d.ts'), `${tarball} lacks dist/index.d.ts`);
      assert.ok(files.includes('package/LICENSE'), `${tarball} lacks LICENSE`);
      assert.deepEqual(
        files.filter((file) => /\.test\.|\/src\/|tsbuildinfo/.test(file)),
        [],
        tarball,
      );
    }
    assert.match(readFileSync(join(project, 'node_modules/@lectern/core/LICENSE'), 'utf8'), /^MIT License/);
  });

  it('runs JavaScript with plain node: core, storage and the fetch handler', () => {
    writeFileSync(
      join(project, 'run.js'),
      `import { createLectern } from '@lectern/core';
import { foldCase } from '@lectern/core/ports';
import { openSqliteStorage } from '@lectern/storage';
import { createApp, createFetchHandler } from '@lectern/http';
const lectern = createLectern({ storage: await openSqliteStorage({ file: ':memory:' }) });
const user = await lectern.users.create(lectern.context(), { email: 'ada@example.com', name: 'Ada' });
const handler = createFetchHandler(createApp(lectern));
const response = await handler(new Request('http://embedded/api/v2/users/'));
console.log(JSON.stringify({ name: user.name, status: response.status, code: (await response.json()).error?.code, folded: foldCase('ÀDA') }));
await lectern.close();
`,
    );
    const result = spawnSync(process.execPath, ['run.js'], { cwd: project, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { name: 'Ada', status: 401, code: 'unauthenticated', folded: 'àda' });
  });

  it('type-checks, compiles and runs examples/embed-core.ts under tsc --init defaults', () => {
    copyFileSync(join(repoRoot, 'examples/embed-core.ts'), join(project, 'embed-core.ts'));
    const compiled = spawnSync(process.execPath, [tsc, '-p', '.'], { cwd: project, encoding: 'utf8' });
    assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);

    // a typo in an input is a compile error for embedders, not only a run-time 422
    writeFileSync(
      join(project, 'typo.ts'),
      `import { createLectern } from '@lectern/core';\ndeclare const lectern: ReturnType<typeof createLectern>;\nawait lectern.users.create(lectern.context(), { emial: 'a@example.com', name: 'A' });\n` +
        `await lectern.content.create(lectern.context(), 'article', { name: 42 });\n` +
        `await lectern.content.create(lectern.context(), 'article', { name: 'A', url: 'https://example.com/' });\n`,
    );
    const typo = spawnSync(process.execPath, [tsc, '-p', '.', '--noEmit'], { cwd: project, encoding: 'utf8' });
    assert.notEqual(typo.status, 0);
    assert.match(typo.stdout, /typo\.ts.*'emial' does not exist/);
    // content inputs per content type: a wrong type, and a field the type lacks
    assert.match(typo.stdout, /typo\.ts\(4,.*Type 'number' is not assignable to type 'string'/);
    assert.match(typo.stdout, /typo\.ts\(5,.*'url' does not exist/);

    const result = spawnSync(process.execPath, ['embed-core.js'], { cwd: project, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    const output = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    assert.deepEqual(output.group, { name: 'Pioneers', member_count: 2 });
    assert.deepEqual(output.reports, ['Alan Turing']);
    assert.match(output.refusal, /^forbidden: /);
    assert.deepEqual(output.invalid, { email: ['A user with this email already exists.'] });
  });

  it('installs no pg for SQLite, and the declarations better-sqlite3 needs; @lectern/cli stays unpublished', () => {
    assert.ok(!existsSync(join(project, 'node_modules/pg')), 'pg is an optional peer, loaded for postgres:// URLs only');
    assert.ok(existsSync(join(project, 'node_modules/@types/better-sqlite3/index.d.ts')));
    const cli = JSON.parse(readFileSync(join(repoRoot, 'packages/cli/package.json'), 'utf8'));
    assert.equal(cli.private, true, 'the command ships as dist/lectern.cjs and the single executable, not as a package');
  });

  it('compiles (skipLibCheck off) and runs every ```ts block of README.md and docs/*.md', () => {
    const blocks = runnableBlocks();
    assert.ok(
      blocks.some((block) => block.name.startsWith('readme-')),
      "the README's embedding example is among them",
    );
    assert.ok(blocks.some((block) => block.name.startsWith('rql-')));
    mkdirSync(join(project, 'snippets'));
    for (const block of blocks) writeFileSync(join(project, 'snippets', `${block.name}.ts`), block.code);
    const options = {
      skipLibCheck: false,
      rootDir: 'snippets',
      outDir: 'snippets-js',
      declaration: false,
      declarationMap: false,
      sourceMap: false,
    };
    writeFileSync(
      join(project, 'tsconfig.snippets.json'),
      JSON.stringify({ extends: './tsconfig.json', compilerOptions: options, include: ['snippets'] }),
    );
    const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.snippets.json'], { cwd: project, encoding: 'utf8' });
    assert.equal(compiled.status, 0, compiled.stdout + compiled.stderr);
    for (const block of blocks) {
      const result = spawnSync(process.execPath, [join('snippets-js', `${block.name}.js`)], {
        cwd: project,
        encoding: 'utf8',
        timeout: 30_000,
      });
      assert.equal(result.status, 0, `${block.name}: ${result.stderr}`);
    }
  });
});
